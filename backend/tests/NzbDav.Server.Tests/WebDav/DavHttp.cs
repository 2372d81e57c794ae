using System.Net.Http.Headers;
using System.Text;
using System.Xml.Linq;

namespace NzbDav.Server.Tests.WebDav;

/// <summary>Request helpers for DAV methods and multistatus parsing.</summary>
public static class DavHttp
{
    public static readonly XNamespace D = "DAV:";

    public static async Task<HttpResponseMessage> PropfindAsync(HttpClient http, string path, string? depth, string? body, CancellationToken cancellationToken)
    {
        using var request = new HttpRequestMessage(new HttpMethod("PROPFIND"), path);
        if (depth is not null)
            request.Headers.TryAddWithoutValidation("Depth", depth);
        if (body is not null)
            request.Content = new StringContent(body, Encoding.UTF8, new MediaTypeHeaderValue("application/xml"));
        return await http.SendAsync(request, cancellationToken);
    }

    /// <summary>PROPFIND that must answer 207; returns each response element keyed by its decoded href.</summary>
    public static async Task<Dictionary<string, XElement>> MultistatusAsync(HttpClient http, string path, string depth, string? body, CancellationToken cancellationToken)
    {
        using var response = await PropfindAsync(http, path, depth, body, cancellationToken);
        Assert.Equal(207, (int)response.StatusCode);
        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        var document = XDocument.Parse(await response.Content.ReadAsStringAsync(cancellationToken));
        Assert.Equal(D + "multistatus", document.Root!.Name);
        return document.Root.Elements(D + "response").ToDictionary(r => Uri.UnescapeDataString(r.Element(D + "href")!.Value), r => r);
    }

    /// <summary>The value of a property in the response's 200 propstat, or null when it is not there.</summary>
    public static XElement? OkProp(XElement response, string name) =>
        response.Elements(D + "propstat")
            .Where(p => p.Element(D + "status")!.Value == "HTTP/1.1 200 OK")
            .Select(p => p.Element(D + "prop")!.Element(D + name))
            .FirstOrDefault(e => e is not null);

    public static async Task<HttpResponseMessage> SendAsync(HttpClient http, string method, string path, CancellationToken cancellationToken, params (string Name, string Value)[] headers)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), path);
        foreach (var (name, value) in headers)
            request.Headers.TryAddWithoutValidation(name, value);
        return await http.SendAsync(request, cancellationToken);
    }

    /// <summary>A response header exactly as the server sent it.</summary>
    public static string? RawHeader(HttpResponseMessage response, string name)
    {
        if (response.Headers.NonValidated.TryGetValues(name, out var values))
            return values.ToString();
        return response.Content.Headers.NonValidated.TryGetValues(name, out var contentValues) ? contentValues.ToString() : null;
    }
}
