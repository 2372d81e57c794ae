namespace NzbDav.Archives.Entries;

/// <summary>
/// What a decrypting stream needs for an encrypted stored entry. The entry's ranges hold the
/// ciphertext, whose length is a multiple of 16 (the plaintext is zero-padded to the AES block);
/// the plaintext is the first <see cref="ArchiveEntry.Size"/> bytes of the decrypted data.
/// </summary>
public sealed class ArchiveEncryption
{
    /// <summary>Cipher and mode.</summary>
    public required ArchiveCipher Cipher { get; init; }

    /// <summary>AES key derived from the password (32 bytes for AES-256, 16 for AES-128).</summary>
    public required ReadOnlyMemory<byte> Key { get; init; }

    /// <summary>Initial CBC vector for the first ciphertext block.</summary>
    public required ReadOnlyMemory<byte> Iv { get; init; }

    /// <summary>
    /// True when the archive carried a password check value and it matched. RAR4 has no such value:
    /// a wrong password there yields wrong bytes that only the file CRC can reveal.
    /// </summary>
    public required bool PasswordVerified { get; init; }
}
