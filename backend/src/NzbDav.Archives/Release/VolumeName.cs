using System.Globalization;
using System.Text.RegularExpressions;

namespace NzbDav.Archives.Release;

/// <summary>A file name recognised as one volume of a set: the set's base name, scheme and volume number.</summary>
/// <param name="BaseName">Name shared by all volumes of the set (e.g. <c>Movie</c> for <c>Movie.part03.rar</c>).</param>
/// <param name="Scheme">Naming scheme.</param>
/// <param name="Number">Position in the set; for <see cref="VolumeScheme.RarOld"/> <c>.rar</c> is 0, <c>.r00</c> is 1.</param>
/// <param name="Digits">Width of the number as written, used to spell missing volumes.</param>
public readonly partial record struct VolumeName(string BaseName, VolumeScheme Scheme, int Number, int Digits)
{
    private const int OldRarLetterSpan = 100;

    /// <summary>Recognises <paramref name="name"/> as a volume; false for anything else.</summary>
    public static bool TryParse(string name, out VolumeName volume)
    {
        ArgumentNullException.ThrowIfNull(name);
        volume = default;
        Match m;
        if ((m = RarPart().Match(name)).Success)
        {
            return TryCreate(m, VolumeScheme.RarPart, 0, out volume);
        }

        if ((m = RarFirst().Match(name)).Success)
        {
            volume = new VolumeName(m.Groups["base"].Value, VolumeScheme.RarOld, 0, 2);
            return true;
        }

        if ((m = RarOld().Match(name)).Success)
        {
            var letter = char.ToLowerInvariant(m.Groups["letter"].Value[0]) - 'r';
            return TryCreate(m, VolumeScheme.RarOld, 1 + letter * OldRarLetterSpan, out volume);
        }

        if ((m = SevenZip().Match(name)).Success)
        {
            return TryCreate(m, VolumeScheme.SevenZip, 0, out volume);
        }

        return (m = Split().Match(name)).Success && TryCreate(m, VolumeScheme.Split, 0, out volume);
    }

    /// <summary>The file name of volume <paramref name="number"/> of this set, spelled like this one.</summary>
    public string NameOf(int number)
    {
        var width = Digits;
        string Pad(int n) => n.ToString(CultureInfo.InvariantCulture).PadLeft(width, '0');
        return Scheme switch
        {
            VolumeScheme.RarPart => BaseName + ".part" + Pad(number) + ".rar",
            VolumeScheme.RarOld when number == 0 => BaseName + ".rar",
            VolumeScheme.RarOld => BaseName + "." + (char)('r' + (number - 1) / OldRarLetterSpan) + Pad((number - 1) % OldRarLetterSpan),
            VolumeScheme.SevenZip => BaseName + ".7z." + Pad(number),
            _ => BaseName + "." + Pad(number),
        };
    }

    private static bool TryCreate(Match m, VolumeScheme scheme, int offset, out VolumeName volume)
    {
        var digits = m.Groups["n"].Value;
        var ok = int.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n <= 1_000_000;
        volume = ok ? new VolumeName(m.Groups["base"].Value, scheme, offset + n, digits.Length) : default;
        return ok;
    }

    [GeneratedRegex(@"^(?<base>.+)\.part(?<n>\d+)\.rar$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex RarPart();

    [GeneratedRegex(@"^(?<base>.+)\.rar$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex RarFirst();

    [GeneratedRegex(@"^(?<base>.+)\.(?<letter>[r-z])(?<n>\d{2})$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex RarOld();

    [GeneratedRegex(@"^(?<base>.+)\.7z\.(?<n>\d{3,})$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex SevenZip();

    [GeneratedRegex(@"^(?<base>.+)\.(?<n>\d{3,})$", RegexOptions.CultureInvariant)]
    private static partial Regex Split();
}
