namespace NzbDav.Data.Entities;

/// <summary>A persisted setting (for example the generated API key).</summary>
public sealed class ConfigItem
{
    public required string Key { get; set; }

    public required string Value { get; set; }
}
