using System.Buffers;

namespace NzbDav.Usenet.Nntp;

/// <summary>
/// Finds the ".\r\n" line that ends a multi-line answer in raw bytes, across reads. Used to skip an
/// answer nobody wants (a cancelled caller, or a body whose yEnc failed) so the connection stays in
/// step with the server.
/// </summary>
internal struct NntpTerminatorScanner
{
    private State _state;

    private enum State
    {
        LineStart,
        InLine,
        Dot,
        DotCr,
    }

    /// <summary>A scanner positioned at the start of a multi-line block.</summary>
    public static NntpTerminatorScanner AtLineStart() => new() { _state = State.LineStart };

    /// <summary>A scanner that has already seen <paramref name="previous"/> (the last bytes before the scan starts) after a line start.</summary>
    public static NntpTerminatorScanner After(ReadOnlySpan<byte> previous)
    {
        var scanner = AtLineStart();
        scanner.Scan(previous, out _);
        return scanner;
    }

    /// <summary>True when the terminator ends inside <paramref name="buffer"/>; <paramref name="end"/> is just past it.</summary>
    public bool TryFind(ReadOnlySequence<byte> buffer, out SequencePosition end)
    {
        long offset = 0;
        foreach (var segment in buffer)
        {
            if (Scan(segment.Span, out var used))
            {
                end = buffer.GetPosition(offset + used);
                return true;
            }
            offset += segment.Length;
        }
        end = buffer.End;
        return false;
    }

    private bool Scan(ReadOnlySpan<byte> data, out int used)
    {
        var i = 0;
        while (i < data.Length)
        {
            if (_state == State.InLine)
            {
                var newline = data[i..].IndexOf((byte)'\n');
                if (newline < 0)
                {
                    break;
                }
                i += newline + 1;
                _state = State.LineStart;
                continue;
            }
            var c = data[i++];
            (_state, var done) = (_state, c) switch
            {
                (State.LineStart, (byte)'.') => (State.Dot, false),
                (State.LineStart, (byte)'\n') => (State.LineStart, false),
                (State.Dot, (byte)'\r') => (State.DotCr, false),
                (State.Dot or State.DotCr, (byte)'\n') => (State.LineStart, true),
                (_, (byte)'\n') => (State.LineStart, false),
                _ => (State.InLine, false),
            };
            if (done)
            {
                used = i;
                return true;
            }
        }
        used = data.Length;
        return false;
    }
}
