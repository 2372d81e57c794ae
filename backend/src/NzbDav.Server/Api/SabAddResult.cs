using System.Text.Json.Serialization;

namespace NzbDav.Server.Api;

/// <summary>addfile/addurl answer.</summary>
public sealed record SabAddResult(bool Status, [property: JsonPropertyName("nzo_ids")] IReadOnlyList<string> NzoIds);
