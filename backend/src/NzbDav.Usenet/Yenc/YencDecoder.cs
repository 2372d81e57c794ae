using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;
using Crc32Hash = System.IO.Hashing.Crc32;

namespace NzbDav.Usenet.Yenc;

/// <summary>
/// Incremental yEnc decoder that eats the NNTP wire form of an article body (CRLF lines,
/// dot-stuffing, the ".\r\n" terminator) in pieces of any size and writes decoded bytes into
/// caller-supplied spans. One instance decodes one article at a time; <see cref="Reset"/> reuses it.
/// </summary>
public sealed partial class YencDecoder
{
    private const int InitialKeywordCapacity = 256;

    // A keyword line longer than this is garbage, not a header; refuse rather than buffer without bound.
    private const int MaxKeywordLineLength = 64 * 1024;

    private readonly YencKernel _kernel;
    private readonly int _scalarStretch;
    private byte[] _keyword = new byte[InitialKeywordCapacity];
    private int _keywordLength;
    private int _beginLineLength;
    private YencDecoderPhase _phase;
    private YencLineState _line;
    private bool _escape;
    private bool _sawMultipartBegin;
    private long _decoded;
    // The CRC-32 runs over each piece just decoded, while it is still in cache: folded in place
    // where the CPU has carry-less multiplies, System.IO.Hashing where it has not.
    private Crc32Accumulator _fold;
    private readonly Crc32Hash? _crc;

    /// <summary>Creates a decoder that uses the fastest kernel this CPU supports.</summary>
    public YencDecoder()
        : this(BestKernel())
    {
    }

    internal YencDecoder(YencKernel kernel, bool libraryCrc = false)
    {
        if (!IsSupported(kernel))
        {
            throw new PlatformNotSupportedException($"The {kernel} yEnc kernel needs CPU support this machine lacks.");
        }
        _kernel = kernel;
        _scalarStretch = ScalarStretch(kernel);
        _crc = libraryCrc || !Crc32Accumulator.IsSupported ? new Crc32Hash() : null;
    }

    /// <summary>The =ybegin/=ypart data; set once <see cref="YencDecodeStatus.HeaderParsed"/> has been returned.</summary>
    public YencHeader? Header { get; private set; }

    /// <summary>The =yend data; set once that line has been consumed.</summary>
    public YencTrailer? Trailer { get; private set; }

    /// <summary>Decoded bytes written so far in this article.</summary>
    public long DecodedLength => _decoded;

    /// <summary>CRC-32 of the decoded bytes written so far in this article.</summary>
    public uint Crc32 => _crc?.GetCurrentHashAsUInt32() ?? _fold.Value;

    /// <summary>True when the CRC-32 is System.IO.Hashing's rather than the folded one.</summary>
    internal bool UsesLibraryCrc => _crc is not null;

    internal YencKernel Kernel => _kernel;

    /// <summary>
    /// Consumes raw NNTP article-body bytes (everything after the "222" status line) and writes
    /// decoded bytes to <paramref name="destination"/>. See <see cref="YencDecodeStatus"/> for
    /// what each result means; on <see cref="YencDecodeStatus.NeedMoreData"/> all of the source was
    /// consumed, and on <see cref="YencDecodeStatus.Completed"/> nothing past the terminator was
    /// (calls after that return Completed again and consume nothing until <see cref="Reset"/>).
    /// </summary>
    /// <exception cref="YencException">A malformed =ybegin/=ypart/=yend line or an unexpected keyword line.</exception>
    public YencDecodeStatus Decode(ReadOnlySpan<byte> source, Span<byte> destination, out int consumed, out int written)
    {
        if (_phase == YencDecoderPhase.Completed)
        {
            consumed = 0;
            written = 0;
            return YencDecodeStatus.Completed;
        }
        if (_phase == YencDecoderPhase.Faulted)
        {
            throw new InvalidOperationException("The yEnc decoder failed on an earlier error; call Reset before reusing it.");
        }

        var i = 0;
        var o = 0;
        YencDecodeStatus status;
        try
        {
            status = Run(source, destination, ref i, ref o);
        }
        catch (YencException)
        {
            _phase = YencDecoderPhase.Faulted;
            throw;
        }
        if (o > 0)
        {
            if (_crc is null)
            {
                _fold.Append(destination[..o]);
            }
            else
            {
                _crc.Append(destination[..o]);
            }
            _decoded += o;
        }
        consumed = i;
        written = o;
        return status;
    }

    /// <summary>
    /// After <see cref="YencDecodeStatus.Completed"/>: checks that the article had =ybegin and
    /// =yend, that the decoded length matches both, and that the part CRC matches.
    /// </summary>
    /// <exception cref="YencCrcMismatchException">The decoded data's CRC-32 differs from the trailer's.</exception>
    /// <exception cref="YencException">Missing header or trailer, or a size mismatch.</exception>
    public YencTrailer EnsureValid()
    {
        if (_phase != YencDecoderPhase.Completed)
        {
            throw new InvalidOperationException("EnsureValid needs a decode that returned Completed.");
        }
        var header = Header ?? throw new YencException(_sawMultipartBegin
            ? "The article ended between its =ybegin line (which has part=) and the =ypart line."
            : "The article has no =ybegin line; it is not yEnc-encoded.");
        var trailer = Trailer ?? throw new YencException(
            $"The article ended without an =yend line after {_decoded} decoded bytes; the yEnc data is truncated.");
        if (_decoded != trailer.Size)
        {
            throw new YencException($"Decoded {_decoded} bytes but the =yend line says size={trailer.Size}.");
        }
        if (_decoded != header.PartSize)
        {
            throw new YencException($"Decoded {_decoded} bytes but the header describes a part of {header.PartSize} bytes.");
        }
        if (trailer.Part is { } trailerPart && header.Part is { } headerPart && trailerPart != headerPart)
        {
            throw new YencException($"The =yend line says part={trailerPart} but the =ybegin line says part={headerPart}.");
        }
        if (trailer.PartCrc32 is { } expected && expected != Crc32)
        {
            throw new YencCrcMismatchException(expected, Crc32);
        }
        return trailer;
    }

    /// <summary>Forgets the current article so the next Decode starts a new one; keeps the buffers.</summary>
    public void Reset()
    {
        _keywordLength = 0;
        _beginLineLength = 0;
        _phase = YencDecoderPhase.Preamble;
        _line = YencLineState.LineStart;
        _escape = false;
        _sawMultipartBegin = false;
        _decoded = 0;
        _fold.Reset();
        _crc?.Reset();
        Header = null;
        Trailer = null;
    }

    internal static bool IsSupported(YencKernel kernel) => kernel switch
    {
        YencKernel.Scalar => true,
        YencKernel.Vector128 => Ssse3.IsSupported,
        YencKernel.Vector256 => Avx2.IsSupported,
        YencKernel.Vector512 => Avx512Vbmi2.IsSupported && Avx512BW.IsSupported,
        _ => false,
    };

    // 512-bit only where the runtime itself uses 512-bit vectors: it declines them on CPUs whose
    // clock drops under 512-bit work.
    private static YencKernel BestKernel()
        => IsSupported(YencKernel.Vector512) && Vector512.IsHardwareAccelerated ? YencKernel.Vector512
            : IsSupported(YencKernel.Vector256) ? YencKernel.Vector256
            : IsSupported(YencKernel.Vector128) ? YencKernel.Vector128
            : YencKernel.Scalar;
}
