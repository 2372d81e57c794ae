namespace NzbDav.Archives.Entries;

/// <summary>
/// What a decrypting stream needs for an encrypted stored entry. The entry's ranges hold the
/// ciphertext, whose length is a multiple of 16 (the plaintext is zero-padded to the AES block);
/// the plaintext is the <see cref="ArchiveEntry.Size"/> bytes of the decrypted data that start at
/// <see cref="PlaintextOffset"/>.
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
    /// Decrypted bytes before the entry's first byte: 0 for RAR, where each entry is its own CBC
    /// stream; in a 7z folder holding several files, where the entry starts inside the stream.
    /// </summary>
    public long PlaintextOffset { get; init; }

    /// <summary>
    /// True when the password was proven: RAR5's check value matched, or a 7z checksum over
    /// decrypted bytes did. RAR4 has no such value, nor has every 7z archive: a wrong password
    /// there yields wrong bytes that only the file CRC can reveal.
    /// </summary>
    public required bool PasswordVerified { get; init; }
}
