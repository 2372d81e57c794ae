namespace NzbDav.Tools.Testing;

/// <summary>The run started but failed (exit code 1); the message names the cause.</summary>
internal sealed class TesterRunFailedException(string message, Exception innerException) : Exception(message, innerException)
{
    /// <summary>Wraps <paramref name="cause"/> with its whole chain of reasons on one console line.</summary>
    public static TesterRunFailedException From(Exception cause)
    {
        var reasons = new List<string>();
        for (var current = cause; current is not null; current = current.InnerException)
            reasons.Add($"{current.GetType().Name}: {current.Message}");
        return new TesterRunFailedException(string.Join(" <- ", reasons), cause);
    }
}
