using NzbDav.Archives.Crypto;

namespace NzbDav.Archives.Tests.Crypto;

public sealed class Rar3KeyDerivationTests
{
    [Fact]
    public void Key_and_iv_depend_on_password_and_salt()
    {
        byte[] salt = [1, 2, 3, 4, 5, 6, 7, 8];
        var (key, iv) = Rar3KeyDerivation.Derive("password", salt);
        Assert.Equal(16, key.Length);
        Assert.Equal(16, iv.Length);
        Assert.Equal((key, iv), Rar3KeyDerivation.Derive("password", salt), KeyComparer.Instance);
        Assert.NotEqual(key, Rar3KeyDerivation.Derive("Password", salt).Key);
        Assert.NotEqual(key, Rar3KeyDerivation.Derive("password", [8, 7, 6, 5, 4, 3, 2, 1]).Key);
    }

    private sealed class KeyComparer : IEqualityComparer<(byte[] Key, byte[] Iv)>
    {
        public static readonly KeyComparer Instance = new();

        public bool Equals((byte[] Key, byte[] Iv) x, (byte[] Key, byte[] Iv) y) => x.Key.SequenceEqual(y.Key) && x.Iv.SequenceEqual(y.Iv);

        public int GetHashCode((byte[] Key, byte[] Iv) obj) => obj.Key[0];
    }
}
