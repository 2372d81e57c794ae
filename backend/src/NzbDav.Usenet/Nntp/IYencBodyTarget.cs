using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Nntp;

/// <summary>
/// Where a streaming BODY decode puts its bytes. The NNTP client calls <see cref="Begin"/> once the
/// yEnc header lines are parsed, then <see cref="GetSpan"/>/<see cref="Advance"/> as data arrives
/// (so a reader can see the first bytes before the article ends), then <see cref="Complete"/>.
/// </summary>
public interface IYencBodyTarget
{
    /// <summary>The yEnc header is known; size the destination (the part holds <see cref="YencHeader.PartSize"/> bytes).</summary>
    void Begin(YencHeader header);

    /// <summary>Space for at least one decoded byte; the decoder writes at most its length.</summary>
    Span<byte> GetSpan();

    /// <summary>Publishes <paramref name="count"/> more decoded bytes.</summary>
    void Advance(int count);

    /// <summary>The article ended and its size and CRC were verified.</summary>
    void Complete(YencTrailer trailer);
}
