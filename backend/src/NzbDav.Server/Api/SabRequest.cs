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

    public static async Task<SabRequest> ReadAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        var form = request.HasFormContentType ? await request.ReadFormAsync(cancellationToken) : null;
        return new SabRequest(request.Query, form);
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
