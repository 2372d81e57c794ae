namespace NzbDav.Server.Auth;

/// <summary>
/// Basic auth for every request whose endpoint does not carry <see cref="BasicAuthExemption"/>,
/// including requests no endpoint matched; an endpoint with <see cref="AlternativeAuthentication"/>
/// also lets in the requests it admits. Runs after routing so the decision rests on the endpoint
/// that will actually execute, not on a path comparison that routing might interpret differently.
/// </summary>
public sealed class BasicAuthMiddleware(RequestDelegate next, WebDavCredentials credentials)
{
    public const string Challenge = "Basic realm=\"NzbDav\"";

    /// <summary>The <see cref="HttpContext.Items"/> key of who a request was let in as ("strm link", a user name, "managed mount").</summary>
    public const string AccountItem = "nzbdav.account";

    public Task InvokeAsync(HttpContext context)
    {
        var metadata = context.GetEndpoint()?.Metadata;
        if (metadata?.GetMetadata<BasicAuthExemption>() is not null)
            return next(context);
        if (metadata?.GetMetadata<AlternativeAuthentication>() is { } alternative && alternative.Admits(context))
        {
            context.Items[AccountItem] = alternative.Account;
            return next(context);
        }
        if (credentials.Verify(context.Request.Headers.Authorization))
        {
            context.Items[AccountItem] = credentials.UserOf(context.Request.Headers.Authorization);
            return next(context);
        }
        context.Response.StatusCode = StatusCodes.Status401Unauthorized;
        context.Response.Headers.WWWAuthenticate = Challenge;
        context.Response.ContentLength = 0;
        return Task.CompletedTask;
    }
}
