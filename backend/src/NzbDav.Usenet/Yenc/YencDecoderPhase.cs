namespace NzbDav.Usenet.Yenc;

/// <summary>Where in the article a <see cref="YencDecoder"/> is.</summary>
internal enum YencDecoderPhase
{
    /// <summary>Before =ybegin: text lines are skipped.</summary>
    Preamble,

    /// <summary>=ybegin had part=, so the very next line must be =ypart.</summary>
    AwaitPart,

    /// <summary>Between the header and =yend: data lines.</summary>
    Data,

    /// <summary>After =yend: anything up to the terminator is ignored.</summary>
    Trailer,

    /// <summary>The terminator was consumed.</summary>
    Completed,

    /// <summary>A structural error was thrown; only <see cref="YencDecoder.Reset"/> helps.</summary>
    Faulted,
}
