namespace NzbDav.Data.Layout;

/// <summary>
/// An AES-CBC encrypted file (a stored entry of an encrypted RAR): the layout's parts hold the
/// ciphertext (a multiple of 16 bytes), the file is its first <paramref name="PlaintextLength"/>
/// decrypted bytes. The derived key is stored, not the password, so streaming needs no key derivation.
/// </summary>
/// <param name="Key">AES key: 16 bytes (AES-128, RAR 2.9–4) or 32 bytes (AES-256, RAR5).</param>
/// <param name="Iv">The 16-byte CBC vector of the first ciphertext block.</param>
/// <param name="PlaintextLength">Bytes of the decrypted file.</param>
public sealed record LayoutEncryption(byte[] Key, byte[] Iv, long PlaintextLength);
