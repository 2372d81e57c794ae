using System.Globalization;
using System.Text;
using Microsoft.Extensions.Primitives;
using NzbDav.Server.WebDav;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// The HTTP Range / If-Range selection of a GET. Input (UTF-8, lines): the Range header values
/// (several separated by U+0001), the If-Range value, and the representation's length. There is no
/// clean rejection: a bad header is ignored (200) or unsatisfiable (416), and any exception is a finding.
/// A partial answer must be a non-empty range inside the representation.
/// </summary>
public sealed class RangeTarget : FuzzTarget
{
    private const string ETag = "\"abc\"";
    private static readonly DateTimeOffset LastModified = new(2024, 5, 6, 7, 8, 9, TimeSpan.Zero);

    public override string Name => "range";

    public override bool Run(byte[] input)
    {
        var lines = Encoding.UTF8.GetString(input).Split('\n');
        var range = new StringValues(lines[0].Split('\u0001'));
        var ifRange = lines.Length > 1 && lines[1].Length > 0 ? new StringValues(lines[1]) : StringValues.Empty;
        var length = lines.Length > 2 && long.TryParse(lines[2], NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) ? parsed : 1000;

        var (outcome, selected) = RangeSelector.Select(range, ifRange, length, ETag, LastModified);
        if (outcome == RangeOutcome.Partial && (selected.From < 0 || selected.To < selected.From || selected.To >= length || selected.Length <= 0))
        {
            throw new FuzzFindingException($"Range '{lines[0]}' on a {length}-byte file selected {selected.From}-{selected.To}.");
        }
        if (RangeSelector.TryParseSingle(lines[0], out var first, out var last, out var suffix) && (first < 0 || last < 0 || (!suffix && last < first)))
        {
            throw new FuzzFindingException($"Range '{lines[0]}' parsed as first={first} last={last} suffix={suffix}.");
        }
        return outcome == RangeOutcome.Partial;
    }
}
