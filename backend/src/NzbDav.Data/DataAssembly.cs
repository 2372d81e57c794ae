namespace NzbDav.Data;

/// <summary>Anchor for the data assembly (migrations are discovered from it).</summary>
public static class DataAssembly
{
    public const string Name = "NzbDav.Data";
}
