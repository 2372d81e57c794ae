using System.Text.Json.Serialization;

namespace NzbDav.Server.Api;

/// <summary>The <c>history</c> object of mode=history.</summary>
public sealed record SabHistory(
    [property: JsonPropertyName("noofslots")] int NoOfSlots,
    [property: JsonPropertyName("total_size")] string TotalSize,
    [property: JsonPropertyName("slots")] IReadOnlyList<SabHistorySlot> Slots);
