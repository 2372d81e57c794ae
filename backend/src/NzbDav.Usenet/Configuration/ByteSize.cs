using System.Globalization;
using System.Text.RegularExpressions;

namespace NzbDav.Usenet.Configuration;

/// <summary>
/// Byte counts as people type and read them: <c>67108864</c>, <c>64 MiB</c>, <c>64MB</c>, <c>64m</c>,
/// <c>1.5 GiB</c>. Every unit is binary (KB = KiB = 1024 bytes), as in rclone's and most servers'
/// configuration files, so a value typed in one spelling reads back the same in another. The UI's
/// size field (<c>frontend/src/lib/sizes.ts</c>) follows the same grammar.
/// </summary>
public static partial class ByteSize
{
    private static readonly string[] Units = ["B", "KiB", "MiB", "GiB", "TiB"];

    /// <summary>Reads <paramref name="text"/>; on failure <paramref name="error"/> says what is accepted.</summary>
    public static bool TryParse(string text, out long bytes, out string? error)
    {
        bytes = 0;
        error = null;
        var match = Pattern().Match(text.Trim());
        if (!match.Success)
        {
            error = $"'{text.Trim()}' is not a size; write bytes or a number with a unit, e.g. 64 MiB, 64MB or 1.5 GiB.";
            return false;
        }
        var digits = match.Groups["number"].Value.Replace(",", "", StringComparison.Ordinal).Replace("_", "", StringComparison.Ordinal);
        var unit = match.Groups["unit"].Value;
        var power = unit.Length == 0 ? 0 : char.ToUpperInvariant(unit[0]) switch
        {
            'K' => 1,
            'M' => 2,
            'G' => 3,
            'T' => 4,
            _ => 0,
        };
        if (!decimal.TryParse(digits, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var number))
        {
            error = $"'{text.Trim()}' is too large.";
            return false;
        }
        decimal value;
        try
        {
            value = decimal.Round(number * (decimal)Math.Pow(1024, power), MidpointRounding.AwayFromZero);
        }
        catch (OverflowException)
        {
            error = $"'{text.Trim()}' is too large.";
            return false;
        }
        if (value > long.MaxValue)
        {
            error = $"'{text.Trim()}' is too large.";
            return false;
        }
        bytes = (long)value;
        return true;
    }

    /// <summary>
    /// The count in the largest unit that states it exactly with at most two decimals ("64 MiB",
    /// "1.5 GiB"), else in bytes with thousands separators ("1,000,000,000 B"), so that reading it back gives the same count.
    /// </summary>
    /// <summary>A size to read, not to parse back: "304 KB", "1.5 GB" (three significant digits at most).</summary>
    public static string Approximate(long bytes)
    {
        // Decimal units, as the web UI shows sizes and as players and providers quote them.
        string[] units = ["B", "KB", "MB", "GB", "TB", "PB"];
        var scaled = (double)Math.Max(0, bytes);
        var unit = 0;
        while (scaled >= 1000 && unit < units.Length - 1)
        {
            scaled /= 1000;
            unit++;
        }
        var text = unit == 0 || scaled >= 100 ? scaled.ToString("0", CultureInfo.InvariantCulture) : scaled.ToString("0.0", CultureInfo.InvariantCulture);
        return text + " " + units[unit];
    }

    public static string Format(long bytes)
    {
        for (var power = Units.Length - 1; power >= 1; power--)
        {
            var value = (decimal)bytes / (1L << (10 * power));
            if (value >= 1 && value < 10_000 && decimal.Truncate(value * 100) == value * 100)
                return value.ToString("0.##", CultureInfo.InvariantCulture) + " " + Units[power];
        }
        return bytes.ToString("#,0", CultureInfo.InvariantCulture) + " B";
    }

    [GeneratedRegex(@"^(?<number>\d{1,3}(?:[,_]\d{3})+|\d+(?:\.\d+)?|\.\d+)\s*(?<unit>(?:[KMGT](?:i?B)?)|B|bytes?)?$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex Pattern();
}
