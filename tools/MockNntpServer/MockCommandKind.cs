namespace NzbDav.MockNntp;

/// <summary>The commands the mock server counts in <see cref="MockServerStats"/>.</summary>
public enum MockCommandKind
{
    Capabilities,
    ModeReader,
    AuthInfo,
    Group,
    Date,
    Body,
    Stat,
    Head,
    Article,
    Quit,
    Control,
    Unknown,
}
