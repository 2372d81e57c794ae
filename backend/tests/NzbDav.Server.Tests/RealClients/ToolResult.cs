namespace NzbDav.Server.Tests.RealClients;

/// <summary>Exit code, standard output bytes and standard error text of one tool run.</summary>
internal sealed record ToolResult(int ExitCode, byte[] Output, string Errors);
