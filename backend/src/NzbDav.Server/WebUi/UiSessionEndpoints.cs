using System.Text.Json;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Authentication;
using NzbDav.Server.Auth;
using NzbDav.Server.Live;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The UI API's session calls under <c>/ui/api</c>: who is logged in (and whether the first account
/// must still be created), first-run setup with the logged code, login, logout, password change.
/// </summary>
public static class UiSessionEndpoints
{
    public const string ApiPrefix = WebUiEndpoints.Prefix + "/api";
    internal const int MinPasswordLength = 8;
    private const int MaxNameLength = 64;
    private const int MaxPasswordLength = 256;

    /// <summary>Maps the UI API; every route in it is exempt from WebDAV's Basic auth and uses the UI's session instead.</summary>
    public static RouteGroupBuilder MapUiApi(this IEndpointRouteBuilder endpoints)
    {
        var api = endpoints.MapGroup(ApiPrefix)
            .WithMetadata(new BasicAuthExemption("the UI API has its own login (session cookie)"))
            .AddEndpointFilter<UiAntiforgeryFilter>();

        api.MapGet("/session", (HttpContext context, UiAccountStore accounts, IAntiforgery antiforgery) =>
            Results.Ok(Session(context, accounts, antiforgery))).Produces<UiSession>();

        api.MapPost("/setup", SetupAsync).RequireRateLimiting(UiAuthentication.LoginPolicy)
            .WithMetadata(new UiRequestBody(typeof(SetupRequest))).Produces<UiSession>().Produces<UiError>(StatusCodes.Status400BadRequest)
            .Produces<UiError>(StatusCodes.Status403Forbidden).Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/login", LoginAsync).RequireRateLimiting(UiAuthentication.LoginPolicy)
            .WithMetadata(new UiRequestBody(typeof(LoginRequest))).Produces<UiSession>().Produces<UiError>(StatusCodes.Status401Unauthorized)
            .Produces<UiError>(StatusCodes.Status409Conflict).Produces(StatusCodes.Status429TooManyRequests);
        api.MapPost("/logout", async (HttpContext context) =>
        {
            await context.SignOutAsync(UiAuthentication.Scheme);
            return Results.NoContent();
        });
        api.MapPost("/account/password", ChangePasswordAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(PasswordChangeRequest))).Produces<UiSession>().Produces<UiError>(StatusCodes.Status400BadRequest);
        api.MapLiveFeed();
        api.MapUiLogs();
        api.MapUiJobs();
        api.MapUiFiles();
        api.MapUiSettings();
        api.MapUiHealth();
        api.MapUiTraffic();
        api.MapUiIntegrations();

        // The UI API's own description; the frontend's types are generated from it (docs/ui.md).
        api.MapOpenApi("/openapi/{documentName}.json").RequireAuthorization();

        // Anything else under the API is not the app's shell.
        api.Map("/{**rest}", () => Results.NotFound(new UiError("There is no such UI API call."))).ExcludeFromDescription();
        return api;
    }

    private static UiSession Session(HttpContext context, UiAccountStore accounts, IAntiforgery antiforgery)
    {
        var user = context.User.Identity is { IsAuthenticated: true, Name: { } name } ? name : null;
        var tokens = antiforgery.GetAndStoreTokens(context);
        return new UiSession(accounts.Current is null, user is not null, user, tokens.RequestToken!);
    }

    private static async Task<IResult> SetupAsync(HttpContext context, UiAccountStore accounts, IAntiforgery antiforgery)
    {
        var (request, problem) = await ReadAsync<SetupRequest>(context);
        if (problem is not null)
            return problem;
        if (accounts.Current is not null)
            return Results.Conflict(new UiError("The administrator account exists already; log in instead."));
        if (CheckCredentials(request!.User, request.Password) is { } invalid)
            return invalid;
        if (!accounts.IsSetupCode(request.Code))
            return Results.Json(new UiError("That setup code is not the one the server logged at its last start."), statusCode: StatusCodes.Status403Forbidden);
        var account = await accounts.CreateAsync(request.Code!, request.User!, request.Password!, context.RequestAborted);
        if (account is null)
            return Results.Conflict(new UiError("The administrator account was just created by someone else; log in instead."));
        await UiAuthentication.SignInAsync(context, account);
        return Results.Ok(Session(context, accounts, antiforgery));
    }

    private static async Task<IResult> LoginAsync(HttpContext context, UiAccountStore accounts, IAntiforgery antiforgery)
    {
        var (request, problem) = await ReadAsync<LoginRequest>(context);
        if (problem is not null)
            return problem;
        if (accounts.Current is null)
            return Results.Conflict(new UiError("No account exists yet: create it with the setup code from the server's log."));
        var account = accounts.Verify(request!.User, request.Password);
        if (account is null)
            return Results.Json(new UiError("Wrong user name or password."), statusCode: StatusCodes.Status401Unauthorized);
        await UiAuthentication.SignInAsync(context, account);
        return Results.Ok(Session(context, accounts, antiforgery));
    }

    private static async Task<IResult> ChangePasswordAsync(HttpContext context, UiAccountStore accounts, IAntiforgery antiforgery)
    {
        var (request, problem) = await ReadAsync<PasswordChangeRequest>(context);
        if (problem is not null)
            return problem;
        var current = accounts.Verify(context.User.Identity?.Name, request!.Current);
        if (current is null)
            return Results.BadRequest(new UiError("The current password is wrong."));
        if (CheckCredentials(current.User, request.New) is { } invalid)
            return invalid;
        var account = await accounts.SetAsync(current.User, request.New!, context.RequestAborted);
        // Every other session ends with the old stamp; this one continues under the new one.
        await UiAuthentication.SignInAsync(context, account);
        return Results.Ok(Session(context, accounts, antiforgery));
    }

    private static IResult? CheckCredentials(string? user, string? password)
    {
        if (string.IsNullOrWhiteSpace(user) || user.Trim().Length > MaxNameLength || user.Any(char.IsControl))
            return Results.BadRequest(new UiError($"The user name must be 1 to {MaxNameLength} characters, without control characters."));
        if (password is null || password.Length < MinPasswordLength || password.Length > MaxPasswordLength)
            return Results.BadRequest(new UiError($"The password must be {MinPasswordLength} to {MaxPasswordLength} characters long."));
        return null;
    }

    /// <summary>The JSON body, or a 400 that says what is wrong with it (never a 500).</summary>
    internal static async Task<(T? Body, IResult? Problem)> ReadAsync<T>(HttpContext context)
        where T : class
    {
        if (!context.Request.HasJsonContentType())
            return (null, Results.Json(new UiError("Send the request as JSON (Content-Type: application/json)."), statusCode: StatusCodes.Status415UnsupportedMediaType));
        try
        {
            var body = await context.Request.ReadFromJsonAsync<T>(context.RequestAborted);
            return body is null ? (null, Results.BadRequest(new UiError("The request body is empty."))) : (body, null);
        }
        catch (JsonException ex)
        {
            return (null, Results.BadRequest(new UiError("The request body is not valid JSON: " + ex.Message)));
        }
    }

    internal sealed record SetupRequest(string? Code, string? User, string? Password);

    internal sealed record LoginRequest(string? User, string? Password);

    internal sealed record PasswordChangeRequest(string? Current, string? New);
}

/// <summary>What the UI knows about its session: whether setup is still needed, who is logged in, and the anti-forgery token for its next change.</summary>
public sealed record UiSession(bool SetupRequired, bool Authenticated, string? User, string CsrfToken);

/// <summary>Every UI API call that changes something must carry the anti-forgery token <c>/session</c> handed out.</summary>
internal sealed class UiAntiforgeryFilter(IAntiforgery antiforgery) : IEndpointFilter
{
    public async ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext invocation, EndpointFilterDelegate next)
    {
        var context = invocation.HttpContext;
        if (!HttpMethods.IsGet(context.Request.Method) && !HttpMethods.IsHead(context.Request.Method))
        {
            bool valid;
            try
            {
                valid = await antiforgery.IsRequestValidAsync(context);
            }
            catch (AntiforgeryValidationException ex)
            {
                // A form-typed body is read for a token field: a body that is not a form (or is too
                // large, or breaks off) is the client's error, not the server's.
                var status = ex.InnerException is BadHttpRequestException bad ? bad.StatusCode : StatusCodes.Status400BadRequest;
                return Results.Json(new UiError("The request body could not be read: " + (ex.InnerException ?? ex).Message), statusCode: status);
            }

            if (!valid)
                return Results.Json(new UiError($"The request lacks a valid {UiAuthentication.CsrfHeader} header; reload the page."), statusCode: StatusCodes.Status400BadRequest);
        }

        return await next(invocation);
    }
}
