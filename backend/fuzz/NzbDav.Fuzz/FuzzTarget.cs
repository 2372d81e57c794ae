namespace NzbDav.Fuzz;

/// <summary>
/// One parser under fuzzing. <see cref="Run"/> feeds it one input and returns normally both when the
/// parser accepts the input and when it rejects it cleanly (with its documented format exception);
/// anything else escapes and is a finding: a bug exception, a <see cref="FuzzFindingException"/>
/// for a broken invariant or a disagreement with a reference, or a hang that the caller times.
/// </summary>
public abstract class FuzzTarget
{
    /// <summary>The name used on the command line, in corpus and findings folder names.</summary>
    public abstract string Name { get; }

    /// <summary>
    /// Runs the parser over <paramref name="input"/>; returns true when it accepted the input, false when
    /// it rejected it cleanly (the replay test uses this to show the seeds reach the accepting paths).
    /// </summary>
    public abstract bool Run(byte[] input);
}

/// <summary>A harness check failed: the parser broke an invariant or disagreed with the reference.</summary>
public sealed class FuzzFindingException(string message, Exception? inner = null) : Exception(message, inner);
