using System.Text.Json.Serialization;

namespace NzbDav.Server.Api;

/// <summary>One <c>history.slots[]</c> entry.</summary>
public sealed record SabHistorySlot(
    [property: JsonPropertyName("nzo_id")] string NzoId,
    [property: JsonPropertyName("name")] string Name,
    [property: JsonPropertyName("nzb_name")] string NzbName,
    [property: JsonPropertyName("category")] string Category,
    [property: JsonPropertyName("status")] string Status,
    [property: JsonPropertyName("fail_message")] string FailMessage,
    [property: JsonPropertyName("storage")] string? Storage,
    [property: JsonPropertyName("path")] string? Path,
    [property: JsonPropertyName("bytes")] long Bytes,
    [property: JsonPropertyName("size")] string Size,
    [property: JsonPropertyName("download_time")] long DownloadTime,
    [property: JsonPropertyName("completed")] long Completed,
    [property: JsonPropertyName("pp")] string PostProcessing,
    [property: JsonPropertyName("script")] string Script);
