using System.Diagnostics.CodeAnalysis;
using System.Text.Json.Serialization;

namespace NzbDav.Server.Api;

/// <summary>The <c>queue</c> object of mode=queue.</summary>
[SuppressMessage("Naming", "CA1711:Identifiers should not have incorrect suffix",
    Justification = "Named after the SABnzbd API's queue object it serializes.")]
public sealed record SabQueue(
    [property: JsonPropertyName("status")] string Status,
    [property: JsonPropertyName("paused")] bool Paused,
    [property: JsonPropertyName("noofslots")] int NoOfSlots,
    [property: JsonPropertyName("noofslots_total")] int NoOfSlotsTotal,
    [property: JsonPropertyName("speed")] string Speed,
    [property: JsonPropertyName("kbpersec")] string KbPerSec,
    [property: JsonPropertyName("mb")] string Mb,
    [property: JsonPropertyName("mbleft")] string MbLeft,
    [property: JsonPropertyName("size")] string Size,
    [property: JsonPropertyName("sizeleft")] string SizeLeft,
    [property: JsonPropertyName("timeleft")] string TimeLeft,
    [property: JsonPropertyName("eta")] string Eta,
    [property: JsonPropertyName("version")] string Version,
    [property: JsonPropertyName("slots")] IReadOnlyList<SabQueueSlot> Slots);
