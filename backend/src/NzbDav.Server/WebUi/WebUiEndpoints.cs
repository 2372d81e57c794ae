using Microsoft.Extensions.Options;
using Microsoft.Net.Http.Headers;
using NzbDav.Server.Auth;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebUi;

/// <summary>
/// Serves the web UI under <see cref="Prefix"/>: its files as they are, any other path below the
/// prefix as <c>index.html</c> (the UI routes in the browser), and a browser's request for <c>/</c>
/// redirected there. WebDAV clients never see any of it: they do not ask for HTML.
/// </summary>
public static class WebUiEndpoints
{
    public const string Prefix = "/ui";

    // The UI's files carry content hashes in their names, so they never change under one name.
    private const string ImmutableAsset = "public, max-age=31536000, immutable";

    // No inline script or style anywhere in the UI, so nothing but its own origin is allowed.
    private const string ContentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self'; " +
        "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

    /// <summary>The OpenAPI document's name: served at <c>/ui/api/openapi/ui.json</c>.</summary>
    public const string OpenApiDocument = "ui";

    public static IServiceCollection AddNzbDavWebUi(this IServiceCollection services)
    {
        services.AddSingleton<ProviderTester>();
        services.AddSingleton<UiSettingsViews>();
        services.AddSingleton(provider =>
        {
            var configured = provider.GetRequiredService<IOptions<NzbDavOptions>>().Value.Ui.Directory;
            return new WebUiFiles(string.IsNullOrWhiteSpace(configured) ? Path.Combine(AppContext.BaseDirectory, "ui") : configured);
        });
        // Numbers are numbers: the web defaults also read "1" as 1, which would make every number in
        // the OpenAPI document "integer or string" and the frontend's types vaguer than the answers.
        services.ConfigureHttpJsonOptions(static options => options.SerializerOptions.NumberHandling = System.Text.Json.Serialization.JsonNumberHandling.Strict);
        // Only the UI's own API: WebDAV and the SABnzbd API are described by their own standards.
        services.AddOpenApi(OpenApiDocument, options =>
        {
            options.ShouldInclude = description => description.RelativePath?.StartsWith("ui/api/", StringComparison.Ordinal) == true;
            options.AddDocumentTransformer((document, _, _) =>
            {
                document.Info.Title = "NzbDav web UI API";
                document.Info.Description = "The JSON API behind NzbDav's web UI (/ui/). Session cookie login; every change needs the X-CSRF-Token header. See docs/ui.md.";
                // The same document whatever address it was asked at, so the frontend's copy stays comparable.
                document.Servers = [];
                return Task.CompletedTask;
            });
            options.AddSchemaTransformer(UiEntitySchemas.TransformAsync);
            options.AddOperationTransformer(async (operation, context, cancellationToken) =>
            {
                if (context.Description.ActionDescriptor.EndpointMetadata.OfType<UiRequestBody>().FirstOrDefault() is { } body)
                {
                    operation.RequestBody = new Microsoft.OpenApi.OpenApiRequestBody
                    {
                        Required = true,
                        Content = new Dictionary<string, Microsoft.OpenApi.OpenApiMediaType>
                        {
                            [body.ContentType] = new() { Schema = await context.GetOrCreateSchemaAsync(body.Type, null, cancellationToken) },
                        },
                    };
                }

                // Grouped by page area (queue, jobs, history, files, logs…) rather than by the assembly that maps them.
                var area = context.Description.RelativePath!["ui/api/".Length..].Split('/', '?')[0];
                operation.Tags = new HashSet<Microsoft.OpenApi.OpenApiTagReference> { new(area, null, null) };
            });
        });
        return services;
    }

    /// <summary>Sends a browser that opens the server's root to the UI; before authentication, so it is not asked for the WebDAV password first.</summary>
    public static IApplicationBuilder UseWebUiRedirect(this IApplicationBuilder app) =>
        app.Use(static (context, next) =>
        {
            if (IsBrowserAtRoot(context.Request))
            {
                context.Response.Redirect(Prefix + "/");
                return Task.CompletedTask;
            }

            return next(context);
        });

    public static IEndpointRouteBuilder MapWebUi(this IEndpointRouteBuilder endpoints)
    {
        // The shell and its scripts hold no data; what the UI shows comes from its API, which has
        // its own login. So they are served without the WebDAV password.
        var exemption = new BasicAuthExemption("the web UI's files hold no data");
        endpoints.MapMethods(Prefix + "/{**path}", [HttpMethods.Get, HttpMethods.Head], ServeAsync).WithMetadata(exemption);
        return endpoints;
    }

    /// <summary>A browser's page load of the root: GET or HEAD of <c>/</c> accepting HTML, with no WebDAV header.</summary>
    internal static bool IsBrowserAtRoot(HttpRequest request) =>
        (HttpMethods.IsGet(request.Method) || HttpMethods.IsHead(request.Method))
        && request.Path.Value is "/" or ""
        && !request.Headers.ContainsKey("Depth")
        && !request.Headers.ContainsKey("Translate")
        && request.Headers.Accept.ToString().Contains("text/html", StringComparison.OrdinalIgnoreCase);

    private static async Task ServeAsync(HttpContext context, WebUiFiles files)
    {
        if (!context.Request.Path.Value!.StartsWith(Prefix + "/", StringComparison.Ordinal))
        {
            // "/ui" without its slash: the app's relative URLs need the folder form.
            context.Response.Redirect(Prefix + "/");
            return;
        }

        var headers = context.Response.Headers;
        headers[HeaderNames.XContentTypeOptions] = "nosniff";
        headers["Referrer-Policy"] = "same-origin";
        headers[HeaderNames.ContentSecurityPolicy] = ContentSecurityPolicy;

        var path = (context.GetRouteValue("path") as string ?? "").TrimStart('/');
        if (!files.IsBuilt)
        {
            await NotBuiltAsync(context, files);
            return;
        }

        if (path.Length > 0 && files.Find(path) is { } file)
        {
            var asset = path.StartsWith("assets/", StringComparison.Ordinal);
            headers.CacheControl = asset ? ImmutableAsset : "no-cache";
            await Results.File(file.PhysicalPath!, files.ContentTypeOf(file.Name), lastModified: file.LastModified).ExecuteAsync(context);
            return;
        }

        if (path.StartsWith("assets/", StringComparison.Ordinal) || Path.HasExtension(path))
        {
            // A file the build did not make (an old hash after an upgrade, a typo): not the app.
            headers.CacheControl = "no-store";
            await Results.NotFound().ExecuteAsync(context);
            return;
        }

        // A route of the UI itself (/ui/, /ui/queue, …): the browser app decides what it shows.
        headers.CacheControl = "no-cache";
        var index = files.Find(WebUiFiles.IndexFile)!;
        await Results.File(index.PhysicalPath!, "text/html; charset=utf-8", lastModified: index.LastModified).ExecuteAsync(context);
    }

    private static async Task NotBuiltAsync(HttpContext context, WebUiFiles files)
    {
        context.Response.StatusCode = StatusCodes.Status404NotFound;
        context.Response.ContentType = "text/html; charset=utf-8";
        context.Response.Headers.CacheControl = "no-store";
        if (HttpMethods.IsHead(context.Request.Method))
            return;
        await context.Response.WriteAsync(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>NzbDav: web UI not built</title></head><body>" +
            "<h1>The web UI is not built</h1>" +
            "<p>This server runs without it: WebDAV (<code>/content/</code>, <code>/nzbs/</code>, <code>/completed/</code>) and the SABnzbd API (<code>/api</code>) work as usual.</p>" +
            "<p>To get the UI, install Node.js 20.19 or newer, then build or run the server again " +
            "(<code>dotnet run --project backend/src/NzbDav</code>): the build runs <code>npm ci</code> and <code>npm run build</code> in <code>frontend/</code> " +
            "and copies the result beside the server. The Docker image always has it.</p>" +
            $"<p>Looked for it in <code>{System.Net.WebUtility.HtmlEncode(files.Directory)}</code>.</p></body></html>",
            context.RequestAborted);
    }
}
