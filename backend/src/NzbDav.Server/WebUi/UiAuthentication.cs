using System.Security.Claims;
using System.Threading.RateLimiting;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.DataProtection;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The web UI's login: a session cookie (HttpOnly, SameSite=Strict, Secure under HTTPS, scoped to
/// <c>/ui</c>), an anti-forgery token on every call that changes something, and login attempts
/// rate-limited per client address. WebDAV keeps its own Basic credentials; none of this applies there.
/// </summary>
public static class UiAuthentication
{
    public const string Scheme = "NzbDav.Ui";
    public const string SessionCookie = "nzbdav_session";
    public const string CsrfCookie = "nzbdav_csrf";
    public const string CsrfHeader = "X-CSRF-Token";
    public const string LoginPolicy = "ui-login";
    internal const string StampClaim = "nzbdav:stamp";

    public static IServiceCollection AddNzbDavUiAuthentication(this IServiceCollection services, NzbDavOptions settings, NzbDav.Data.LibraryStore store)
    {
        ArgumentNullException.ThrowIfNull(settings);
        services.AddSingleton<UiAccountStore>();
        services.AddHostedService<UiAccountInitializer>();

        // Keys kept, so sessions and tokens outlive a restart of the server or the container: in the
        // data directory on SQLite, in the library on PostgreSQL, where every node must read a
        // session another node made.
        var protection = services.AddDataProtection().SetApplicationName("NzbDav");
        if (store.Provider == NzbDav.Data.StoreProvider.Postgres)
            protection.PersistKeysToDbContext<NzbDav.Data.NzbDavDbContext>();
        else
            protection.PersistKeysToFileSystem(new DirectoryInfo(Path.Combine(Path.GetFullPath(settings.DataDirectory), "keys")));

        services.AddAuthentication(Scheme).AddCookie(Scheme, options =>
        {
            options.Cookie.Name = SessionCookie;
            options.Cookie.HttpOnly = true;
            options.Cookie.SameSite = SameSiteMode.Strict;
            options.Cookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
            options.Cookie.Path = WebUiEndpoints.Prefix;
            options.ExpireTimeSpan = settings.Ui.SessionIdleTimeout;
            options.SlidingExpiration = true;
            // An API answers 401/403; it never redirects to a login page.
            options.EventsType = typeof(UiSessionEvents);
        });
        services.AddSingleton<UiSessionEvents>();
        services.AddAuthorization();

        services.AddAntiforgery(options =>
        {
            options.HeaderName = CsrfHeader;
            options.Cookie.Name = CsrfCookie;
            options.Cookie.Path = WebUiEndpoints.Prefix;
            options.Cookie.SameSite = SameSiteMode.Strict;
            options.Cookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
        });

        var perMinute = Math.Max(1, settings.Ui.LoginAttemptsPerMinute);
        services.AddRateLimiter(options =>
        {
            options.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
            options.AddPolicy(LoginPolicy, context => RateLimitPartition.GetFixedWindowLimiter(
                context.Connection.RemoteIpAddress?.ToString() ?? "unknown",
                _ => new FixedWindowRateLimiterOptions { PermitLimit = perMinute, Window = TimeSpan.FromMinutes(1), QueueLimit = 0 }));
            options.OnRejected = static async (context, cancellationToken) =>
            {
                if (context.Lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter))
                    context.HttpContext.Response.Headers.RetryAfter = ((int)Math.Ceiling(retryAfter.TotalSeconds)).ToString(System.Globalization.CultureInfo.InvariantCulture);
                await context.HttpContext.Response.WriteAsJsonAsync(new UiError("Too many attempts from this address; wait a minute and try again."), cancellationToken);
            };
        });
        return services;
    }

    /// <summary>Signs <paramref name="account"/> in on this request (the cookie goes out with the response).</summary>
    internal static async Task SignInAsync(HttpContext context, UiAccount account)
    {
        var identity = new ClaimsIdentity(
            [new Claim(ClaimTypes.Name, account.User), new Claim(StampClaim, account.Stamp)],
            Scheme, ClaimTypes.Name, ClaimTypes.Role);
        var principal = new ClaimsPrincipal(identity);
        await context.SignInAsync(Scheme, principal, new AuthenticationProperties { IsPersistent = true });
        // The anti-forgery token is bound to the user: the next one handed out must be the new user's.
        context.User = principal;
    }

}

/// <summary>
/// The session cookie's checks: an API answers 401/403 and never redirects to a login page, and a
/// session whose account changed since it began (another name or password: another stamp) ends.
/// </summary>
public sealed class UiSessionEvents(UiAccountStore accounts) : CookieAuthenticationEvents
{
    public override Task RedirectToLogin(RedirectContext<CookieAuthenticationOptions> context) => Status(context, StatusCodes.Status401Unauthorized);

    public override Task RedirectToAccessDenied(RedirectContext<CookieAuthenticationOptions> context) => Status(context, StatusCodes.Status403Forbidden);

    public override Task ValidatePrincipal(CookieValidatePrincipalContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var account = accounts.Current;
        if (account is null
            || context.Principal?.FindFirst(UiAuthentication.StampClaim)?.Value != account.Stamp
            || context.Principal?.Identity?.Name != account.User)
        {
            context.RejectPrincipal();
        }

        return Task.CompletedTask;
    }

    private static Task Status(RedirectContext<CookieAuthenticationOptions> context, int status)
    {
        context.Response.StatusCode = status;
        return Task.CompletedTask;
    }
}

/// <summary>What every refused UI API call answers: one sentence for the user, and the field at fault when one is (its JSON name).</summary>
public sealed record UiError(string Error, string? Field = null);
