namespace NzbDav.Archives.Release;

/// <summary>What the packet scanner asks its driver to do next.</summary>
internal enum Par2StepKind
{
    /// <summary>Drop <c>Count</c> bytes from the front of the window.</summary>
    Consume,

    /// <summary>Grow the window to at least <c>Count</c> bytes (or report the end of data).</summary>
    NeedMore,

    /// <summary>Pass over a packet of <c>Count</c> bytes starting at the window's front; may exceed the window.</summary>
    Skip,

    /// <summary>Nothing more to read.</summary>
    End,
}

/// <summary>One scanner instruction.</summary>
internal readonly record struct Par2Step(Par2StepKind Kind, long Count);
