namespace NzbDav.Server.Tests.RealClients;

/// <summary>
/// How <see cref="ExternalTool"/> runs a tool: its deadline, the install command a missing tool's
/// failure names, variables to set (a null value removes one) and the working directory.
/// </summary>
internal sealed record ToolRun(TimeSpan Deadline, string Install, IReadOnlyDictionary<string, string?>? Environment = null, string? WorkingDirectory = null)
{
    public static ToolRun Default { get; } = new(TimeSpan.FromMinutes(2), "apt-get install -y rclone ffmpeg");
}
