namespace NzbDav.Usenet.Tests.Mock;

internal static class TestData
{
    public static byte[] Random(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
