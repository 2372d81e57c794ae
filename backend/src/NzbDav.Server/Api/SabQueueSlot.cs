using System.Text.Json.Serialization;

namespace NzbDav.Server.Api;

/// <summary>One <c>queue.slots[]</c> entry; numbers are strings like SABnzbd sends them.</summary>
public sealed record SabQueueSlot(
    [property: JsonPropertyName("index")] int Index,
    [property: JsonPropertyName("nzo_id")] string NzoId,
    [property: JsonPropertyName("filename")] string Filename,
    [property: JsonPropertyName("cat")] string Cat,
    [property: JsonPropertyName("priority")] string Priority,
    [property: JsonPropertyName("status")] string Status,
    [property: JsonPropertyName("mb")] string Mb,
    [property: JsonPropertyName("mbleft")] string MbLeft,
    [property: JsonPropertyName("size")] string Size,
    [property: JsonPropertyName("sizeleft")] string SizeLeft,
    [property: JsonPropertyName("percentage")] string Percentage,
    [property: JsonPropertyName("timeleft")] string TimeLeft,
    [property: JsonPropertyName("password")] string Password,
    [property: JsonPropertyName("labels")] IReadOnlyList<string> Labels);
