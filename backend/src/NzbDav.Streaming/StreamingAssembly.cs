namespace NzbDav.Streaming;

/// <summary>Anchor for assembly scanning and DI registration of the streaming engine.</summary>
public static class StreamingAssembly
{
    /// <summary>The name the engine logs under.</summary>
    public const string Name = "NzbDav.Streaming";
}
