using NzbDav.Usenet.Configuration;

namespace NzbDav.Server.Api;

/// <summary>One SABnzbd API call: parameters from the query string and, for POSTs, the form.</summary>
public sealed class SabRequest
{
    private readonly IQueryCollection _query;
    private readonly IFormCollection? _form;

    private SabRequest(IQueryCollection query, IFormCollection? form)
    {
        _query = query;
        _form = form;
    }

    /// <summary>
    /// Reads the form of a POST, with a body limit that fits an NZB of <paramref name="maxNzbBytes"/>
    /// (Kestrel's default for other requests is far smaller). Throws <see cref="SabRequestException"/>
    /// with the HTTP status when the body is too large or not a readable form.
    /// </summary>
    public static async Task<SabRequest> ReadAsync(HttpRequest request, long maxNzbBytes, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        if (!request.HasFormContentType)
            return new SabRequest(request.Query, null);
        var limit = maxNzbBytes + Hosting.HttpLimits.FormOverheadBytes;
        Hosting.HttpLimits.AllowRequestBody(request.HttpContext, limit);
        if (request.ContentLength > limit)
            throw new SabRequestException(StatusCodes.Status413PayloadTooLarge, $"The request body is larger than {ByteSize.Format(limit)} (an NZB may have {ByteSize.Format(maxNzbBytes)})");
        try
        {
            var form = await request.ReadFormAsync(cancellationToken);
            return new SabRequest(request.Query, form);
        }
        catch (BadHttpRequestException ex)
        {
            throw new SabRequestException(ex.StatusCode, ex.Message, ex);
        }
        catch (Exception ex) when (ex is InvalidDataException or IOException && !cancellationToken.IsCancellationRequested)
        {
            // The multipart reader's words for a broken form: a missing or overlong boundary, a
            // body that ends before its closing boundary, a part header that is not one.
            throw new SabRequestException(StatusCodes.Status400BadRequest, "The form could not be read: " + ex.Message, ex);
        }
    }

    /// <summary>The parameter from the query string, else from the form; null when absent or empty.</summary>
    public string? Get(string name)
    {
        string? value = _query[name];
        if (string.IsNullOrEmpty(value) && _form is not null)
            value = _form[name];
        return string.IsNullOrEmpty(value) ? null : value;
    }

    /// <summary>The uploaded NZB: the file field <c>name</c> or <c>nzbfile</c> in any letter case.</summary>
    public IFormFile? NzbFile =>
        _form?.Files.FirstOrDefault(f =>
            f.Name.Equals("name", StringComparison.OrdinalIgnoreCase) || f.Name.Equals("nzbfile", StringComparison.OrdinalIgnoreCase));

    public int GetInt(string name, int fallback) =>
        int.TryParse(Get(name), System.Globalization.NumberStyles.Integer, System.Globalization.CultureInfo.InvariantCulture, out var value) ? value : fallback;

    /// <summary>Comma-separated <c>value</c> ids.</summary>
    public IReadOnlyList<string> Ids =>
        (Get("value") ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
