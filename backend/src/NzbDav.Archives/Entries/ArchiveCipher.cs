namespace NzbDav.Archives.Entries;

/// <summary>Cipher protecting a stored entry's bytes.</summary>
public enum ArchiveCipher
{
    /// <summary>AES-256 in CBC mode (RAR5, 7z).</summary>
    Aes256Cbc,

    /// <summary>AES-128 in CBC mode (RAR 2.9 – 4.x).</summary>
    Aes128Cbc,
}
