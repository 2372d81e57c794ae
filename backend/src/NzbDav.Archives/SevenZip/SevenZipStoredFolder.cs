using NzbDav.Archives.Crypto;

namespace NzbDav.Archives.SevenZip;

/// <summary>A folder whose output is its packed bytes (Copy), optionally AES-encrypted; offsets are archive offsets.</summary>
internal sealed record SevenZipStoredFolder(int Index, long PackStart, long PackSize, long UnpackSize, SevenZipAesProperties? Aes);
