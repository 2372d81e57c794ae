namespace NzbDav.Data.Layout;

/// <summary>
/// An AES-CBC encrypted file (a stored entry of an encrypted RAR or 7z): the layout's parts hold the
/// ciphertext (a multiple of 16 bytes), the file is the <paramref name="PlaintextLength"/> decrypted
/// bytes from <paramref name="PlaintextOffset"/> on. The derived key is stored, not the password, so
/// streaming needs no key derivation.
/// </summary>
/// <param name="Key">AES key: 16 bytes (AES-128, RAR 2.9–4) or 32 bytes (AES-256, RAR5).</param>
/// <param name="Iv">The 16-byte CBC vector of the first ciphertext block.</param>
/// <param name="PlaintextLength">Bytes of the decrypted file.</param>
/// <param name="PlaintextOffset">
/// Decrypted bytes before the file's first byte: 0 for RAR; for a file inside a 7z encrypted folder,
/// where it starts in the folder's CBC stream (its parts then begin with the block before it, whose
/// ciphertext chains into the file's first block).
/// </param>
public sealed record LayoutEncryption(byte[] Key, byte[] Iv, long PlaintextLength, long PlaintextOffset = 0);
