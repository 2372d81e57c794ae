namespace NzbDav.Archives.Release;

/// <summary>What a release file is, from its magic bytes first and its extension second.</summary>
public enum ReleaseFileKind
{
    /// <summary>Neither the bytes nor the name say what it is.</summary>
    Unknown,

    /// <summary>RAR 1.5–4.x archive volume (<c>Rar!\x1A\x07\x00</c>).</summary>
    Rar4,

    /// <summary>RAR 5 archive volume (<c>Rar!\x1A\x07\x01\x00</c>).</summary>
    Rar5,

    /// <summary>A RAR volume known only by name (<c>.rar</c>, <c>.rNN</c>, <c>.partNN.rar</c>).</summary>
    Rar,

    /// <summary>7-Zip archive (<c>7z\xBC\xAF\x27\x1C</c>) or one of its <c>.7z.NNN</c> volumes.</summary>
    SevenZip,

    /// <summary>A numbered piece (<c>.001</c>, <c>.002</c>…) of a file split without an archiver.</summary>
    SplitPart,

    /// <summary>PAR2 recovery file (<c>PAR2\0PKT</c>).</summary>
    Par2,

    /// <summary>Matroska or WebM (EBML header <c>1A 45 DF A3</c>).</summary>
    Matroska,

    /// <summary>ISO base media (MP4, M4V, MOV): <c>ftyp</c> at offset 4.</summary>
    Mp4,

    /// <summary>AVI: <c>RIFF</c>, size, <c>AVI </c>.</summary>
    Avi,

    /// <summary>MPEG transport stream: sync byte 0x47 every 188 bytes (192 for M2TS).</summary>
    MpegTs,

    /// <summary>Another video container, known by extension.</summary>
    OtherVideo,

    /// <summary>Subtitles (<c>.srt</c>, <c>.sub</c>, <c>.idx</c>, <c>.ass</c>, …).</summary>
    Subtitle,

    /// <summary>Audio file.</summary>
    Audio,

    /// <summary>Image file (covers, screenshots).</summary>
    Image,

    /// <summary>Release info (<c>.nfo</c>).</summary>
    Nfo,

    /// <summary>Checksum list (<c>.sfv</c>, <c>.md5</c>).</summary>
    Checksum,

    /// <summary>Plain text.</summary>
    Text,
}
