using System.Text;

namespace NzbDav.Usenet.Nzb;

// Renders untrusted NZB text for error messages: short, single-line, no control characters.
internal static class NzbPreview
{
    private const int MaxChars = 60;

    public static string Of(ReadOnlySpan<char> text)
    {
        var shown = text.Length > MaxChars ? text[..MaxChars] : text;
        var builder = new StringBuilder(shown.Length + 1);
        foreach (var c in shown)
            builder.Append(char.IsControl(c) ? '?' : c);
        if (text.Length > MaxChars)
            builder.Append('…');
        return builder.ToString();
    }
}
