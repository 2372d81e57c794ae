using Microsoft.Extensions.Primitives;
using Microsoft.Net.Http.Headers;

namespace NzbDav.Server.WebDav;

/// <summary>
/// RFC 7233 range selection for one GET. A Range header that is malformed, in another unit, repeated,
/// or asks for several ranges is ignored (§3.1: a server MAY ignore Range), giving 200 with the whole
/// file; players and rclone only ever send one range. If-Range that does not match also gives 200.
/// </summary>
public static class RangeSelector
{
    public static (RangeOutcome Outcome, ByteRange Range) Select(
        StringValues range, StringValues ifRange, long length, string? etag, DateTimeOffset lastModified)
    {
        if (range.Count != 1 || !TryParseSingle(range[0]!, out var first, out var last, out var suffix))
            return (RangeOutcome.Full, default);
        if (ifRange.Count > 0 && !IfRangeMatches(ifRange, etag, lastModified))
            return (RangeOutcome.Full, default);

        if (suffix)
        {
            // bytes=-N: the last N bytes; -0 and any suffix of an empty file select nothing.
            if (last == 0 || length == 0)
                return (RangeOutcome.Unsatisfiable, default);
            return (RangeOutcome.Partial, new ByteRange(Math.Max(0, length - last), length - 1));
        }

        if (first >= length)
            return (RangeOutcome.Unsatisfiable, default);
        return (RangeOutcome.Partial, new ByteRange(first, Math.Min(last, length - 1)));
    }

    /// <summary>Strong comparison for an entity tag (a weak one never matches); exact equality for a date.</summary>
    public static bool IfRangeMatches(StringValues ifRange, string? etag, DateTimeOffset lastModified)
    {
        if (ifRange.Count != 1)
            return false;
        var value = ifRange[0]!.Trim();
        if (value.StartsWith("W/", StringComparison.Ordinal))
            return false;
        if (value.StartsWith('"'))
            return etag is not null && string.Equals(value, etag, StringComparison.Ordinal);
        return HeaderUtilities.TryParseDate(value, out var date) && date == lastModified;
    }

    /// <summary>
    /// Parses <c>bytes=first-last</c>, <c>bytes=first-</c> or <c>bytes=-suffix</c>. <paramref name="last"/>
    /// is <see cref="long.MaxValue"/> for an open range and holds the length for a suffix range.
    /// </summary>
    public static bool TryParseSingle(string header, out long first, out long last, out bool suffix)
    {
        first = 0;
        last = long.MaxValue;
        suffix = false;
        var value = header.AsSpan().Trim();
        if (!value.StartsWith("bytes=", StringComparison.OrdinalIgnoreCase))
            return false;
        // The list grammar allows empty elements ("bytes=, 0-5"); exactly one real range is accepted.
        string? spec = null;
        foreach (var part in value[6..].ToString().Split(','))
        {
            var trimmed = part.Trim(' ').Trim('\t');
            if (trimmed.Length == 0)
                continue;
            if (spec is not null)
                return false;
            spec = trimmed;
        }

        if (spec is null)
            return false;
        var dash = spec.IndexOf('-');
        if (dash < 0)
            return false;
        var left = spec.AsSpan(0, dash);
        var right = spec.AsSpan(dash + 1);
        if (left.IsEmpty)
        {
            suffix = true;
            return TryParseDigits(right, out last);
        }

        if (!TryParseDigits(left, out first))
            return false;
        if (right.IsEmpty)
            return true;
        // last < first makes the whole header invalid (§2.1), so it is ignored.
        return TryParseDigits(right, out last) && last >= first;
    }

    /// <summary>ASCII digits only (no sign, no spaces); values past <see cref="long.MaxValue"/> saturate.</summary>
    private static bool TryParseDigits(ReadOnlySpan<char> text, out long value)
    {
        value = 0;
        if (text.IsEmpty)
            return false;
        foreach (var c in text)
        {
            if (!char.IsAsciiDigit(c))
                return false;
            value = value > (long.MaxValue - (c - '0')) / 10 ? long.MaxValue : value * 10 + (c - '0');
        }

        return true;
    }
}
