namespace NzbDav.Server.WebDav;

/// <summary>An inclusive byte range <c>From..To</c> of a representation.</summary>
public readonly record struct ByteRange(long From, long To)
{
    public long Length => To - From + 1;
}
