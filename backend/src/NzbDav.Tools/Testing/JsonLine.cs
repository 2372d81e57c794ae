using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace NzbDav.Tools.Testing;

/// <summary>The test commands' <c>--json</c> report: one JSON object on one line, the last line of the output.</summary>
internal static class JsonLine
{
    public static string Object(Action<Utf8JsonWriter> writeProperties)
    {
        using var buffer = new MemoryStream();
        // Console output for people and scripts, never embedded in HTML: keep quotes and apostrophes readable.
        using (var json = new Utf8JsonWriter(buffer, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            json.WriteStartObject();
            writeProperties(json);
            json.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.GetBuffer(), 0, (int)buffer.Length);
    }
}
