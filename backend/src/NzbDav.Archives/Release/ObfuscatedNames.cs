using System.Text.RegularExpressions;

namespace NzbDav.Archives.Release;

/// <summary>Heuristic for the random names posters use to hide releases from takedowns.</summary>
public static partial class ObfuscatedNames
{
    private static readonly char[] Separators = [' ', '.', '_', '-', '(', ')', '[', ']', '{', '}', '+', ',', '&', '\''];

    /// <summary>
    /// True when the stem of <paramref name="name"/> (volume suffixes and known extensions removed) looks
    /// random: a GUID, 16+ hex digits, or a 10+ character token that mixes letters and digits or upper and
    /// lower case irregularly, or a long run of letters with too few vowels to be words. Names with two or
    /// more word-like tokens, or with scene markers (<c>S01E02</c>, <c>1080p</c>, <c>x264</c>, a year), are not.
    /// </summary>
    public static bool IsLikelyObfuscated(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var stem = Stem(name);
        if (stem.Length == 0 || Guid.TryParse(stem, out _))
        {
            return true;
        }

        var tokens = stem.Split(Separators, StringSplitOptions.RemoveEmptyEntries);
        if (tokens.Length == 0)
        {
            return true;
        }

        if (tokens.Any(t => SceneMarker().IsMatch(t)) || tokens.Count(IsWordLike) >= 2)
        {
            return false;
        }

        return IsRandomToken(tokens.MaxBy(t => t.Length)!);
    }

    /// <summary>The file name without directories, volume suffixes and known extensions.</summary>
    internal static string Stem(string name)
    {
        var stem = name[(name.LastIndexOfAny(['/', '\\']) + 1)..];
        for (var i = 0; i < 3; i++)
        {
            var match = VolumeSuffix().Match(stem);
            if (match.Success)
            {
                stem = stem[..match.Index];
                continue;
            }

            var dot = stem.LastIndexOf('.');
            if (dot < 0 || !ReleaseFileClassifier.HasKnownExtension(stem[dot..]))
            {
                break;
            }

            stem = stem[..dot];
        }

        return stem.Trim();
    }

    private static bool IsWordLike(string token) =>
        token.All(char.IsAsciiDigit) || (token.All(char.IsLetter) && token.Length >= 2 && !IsRandomToken(token));

    private static bool IsRandomToken(string token)
    {
        if (token.Length >= 16 && token.All(char.IsAsciiHexDigit))
        {
            return true;
        }

        if (token.Length < 10)
        {
            return false;
        }

        int letters = 0, digits = 0, upper = 0, vowels = 0, classChanges = 0;
        for (var i = 0; i < token.Length; i++)
        {
            var c = token[i];
            letters += char.IsLetter(c) ? 1 : 0;
            digits += char.IsAsciiDigit(c) ? 1 : 0;
            upper += char.IsUpper(c) ? 1 : 0;
            vowels += "aeiouyAEIOUY".Contains(c) ? 1 : 0;
            classChanges += i > 0 && char.IsAsciiDigit(c) != char.IsAsciiDigit(token[i - 1]) ? 1 : 0;
        }

        var lower = letters - upper;
        if (digits > 0 && letters > 0)
        {
            return classChanges >= 3;
        }

        if (letters != token.Length)
        {
            return false;
        }

        // CamelCase words have one capital per word; random mixed case is near half capitals.
        var irregularCase = upper >= 3 && lower >= 3 && upper * 10 > token.Length * 3;
        var tooFewVowels = token.Length >= 16 && vowels * 5 < letters;
        return irregularCase || tooFewVowels;
    }

    [GeneratedRegex(@"(\.part\d+\.rar|\.vol\d+[+-]\d+\.par2|\.7z\.\d{3,}|\.[r-z]\d{2,3}|\.\d{3,})$",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex VolumeSuffix();

    [GeneratedRegex(@"^(S\d{1,2}(E\d{1,3})*|E\d{1,3}|\d{3,4}[pi]|[xh]26[45]|hevc|avc|bluray|web|webrip|webdl|hdtv|dvdrip|remux|(19|20)\d{2})$",
        RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex SceneMarker();
}
