using System.Text;

namespace NzbDav.Server.WebDav;

/// <summary>Small fixed responses: status with a DAV error body, and the methods NzbDav allows.</summary>
public static class DavResponses
{
    public const string AllowedMethods = "OPTIONS, PROPFIND, GET, HEAD, PUT, DELETE";

    /// <summary>NzbDav's own namespace for error conditions RFC 4918 does not name.</summary>
    public const string NzbDavNamespace = "urn:nzbdav:webdav";

    /// <summary>
    /// Answers <paramref name="status"/> with <c>&lt;d:error&gt;</c> holding one condition element
    /// (a DAV: one such as <c>propfind-finite-depth</c>, else one in <see cref="NzbDavNamespace"/>).
    /// </summary>
    public static async Task ErrorAsync(HttpContext context, int status, string condition, bool davCondition, string? reason = null)
    {
        var conditionXml = davCondition
            ? "<d:" + condition + "/>"
            : "<n:" + condition + " xmlns:n=\"" + NzbDavNamespace + "\"/>";
        var description = reason is null ? "" : "<d:responsedescription>" + System.Security.SecurityElement.Escape(reason) + "</d:responsedescription>";
        var body = Encoding.UTF8.GetBytes(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><d:error xmlns:d=\"DAV:\">" + conditionXml + description + "</d:error>");
        context.Response.StatusCode = status;
        context.Response.ContentType = "application/xml; charset=utf-8";
        context.Response.ContentLength = body.Length;
        if (!HttpMethods.IsHead(context.Request.Method))
            await context.Response.Body.WriteAsync(body, context.RequestAborted);
    }

    /// <summary>405 for a method the tree never supports (MKCOL, MOVE, COPY, PROPPATCH, LOCK, UNLOCK…).</summary>
    public static Task MethodNotAllowedAsync(HttpContext context)
    {
        context.Response.Headers.Allow = AllowedMethods;
        return ErrorAsync(context, StatusCodes.Status405MethodNotAllowed, "method-not-supported", davCondition: false,
            "NzbDav's WebDAV tree supports " + AllowedMethods);
    }

    /// <summary>403 for a write to a read-only part of the tree.</summary>
    public static Task ReadOnlyAsync(HttpContext context, string reason) =>
        ErrorAsync(context, StatusCodes.Status403Forbidden, "read-only", davCondition: false, reason);

    /// <summary>A plain status with a short text body.</summary>
    public static async Task TextAsync(HttpContext context, int status, string text)
    {
        var body = Encoding.UTF8.GetBytes(text + "\n");
        context.Response.StatusCode = status;
        context.Response.ContentType = "text/plain; charset=utf-8";
        context.Response.ContentLength = body.Length;
        if (!HttpMethods.IsHead(context.Request.Method))
            await context.Response.Body.WriteAsync(body, context.RequestAborted);
    }
}
