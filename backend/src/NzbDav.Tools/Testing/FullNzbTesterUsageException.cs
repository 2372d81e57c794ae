namespace NzbDav.Tools.Testing;

/// <summary>The tester cannot start: bad arguments or missing configuration (exit code 2).</summary>
public sealed class FullNzbTesterUsageException(string message) : Exception(message);
