namespace NzbDav.Archives.SevenZip;

/// <summary>One coder of a 7z folder: method id, stream counts and properties.</summary>
internal sealed record SevenZipCoder(byte[] MethodId, int InStreams, int OutStreams, byte[] Properties)
{
    public bool IsCopy => MethodId is [0x00] or [];

    public bool IsLzma => MethodId is [0x03, 0x01, 0x01];

    public bool IsAes => MethodId is [0x06, 0xF1, 0x07, 0x01];

    /// <summary>Human name for refusal messages.</summary>
    public string Name
    {
        get
        {
            var id = Convert.ToHexString(MethodId);
            var known = id switch
            {
                "00" => "Copy",
                "21" => "LZMA2",
                "030101" => "LZMA",
                "03030103" => "BCJ",
                "0303011B" => "BCJ2",
                "030401" => "PPMd",
                "040108" => "Deflate",
                "040109" => "Deflate64",
                "040202" => "BZip2",
                "06F10701" => "AES-256",
                _ => null,
            };
            return known is null ? "coder " + id : known + " (" + id + ")";
        }
    }
}
