using NzbDav.Data.Layout;

namespace NzbDav.Server.Queue;

/// <summary>A playable file found by ingestion: its name inside the job folder and its layout.</summary>
public sealed record IngestedFile(string Name, DavFileLayout Layout);
