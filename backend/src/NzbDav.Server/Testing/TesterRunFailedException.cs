namespace NzbDav.Server.Testing;

/// <summary>The run started but failed (exit code 1); the message names the cause.</summary>
internal sealed class TesterRunFailedException(string message, Exception innerException) : Exception(message, innerException);
