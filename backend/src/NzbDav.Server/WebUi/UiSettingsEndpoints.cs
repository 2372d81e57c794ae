using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Server.Auth;
using NzbDav.Server.Configuration;
using NzbDav.Server.Live;
using NzbDav.Server.WebDav;
using NzbDav.Usenet.Limiting;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.WebUi;

/// <summary>
/// The Settings page's calls. Everything saved here is stored in the database and in effect at
/// once, through the same options monitors that carry <c>settings.json</c> changes (providers and
/// limiter shares reach the running client; see docs/configuration.md for the layers). A provider
/// whose connection settings changed is tested before it is saved; one that fails its test is saved
/// only when the request says <c>force</c>. Sonarr and Radarr instances are added, tested, changed
/// and deleted the same way; their API keys, like provider passwords, are never sent back.
/// </summary>
public static partial class UiSettingsEndpoints
{
    public static void MapUiSettings(this RouteGroupBuilder api)
    {
        api.MapGet("/settings", (HttpContext context) => Results.Ok(View(context.RequestServices))).RequireAuthorization().Produces<UiSettingsView>();
        api.MapPost("/settings", SaveSettingsAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiSettingsChange))).Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/settings/providers", (Delegate)AddProviderAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiProviderRequest))).Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status409Conflict)
            .Produces<UiProviderSaveRefused>(StatusCodes.Status422UnprocessableEntity);
        api.MapPost("/settings/providers/test", TestProviderAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiProviderRequest))).Produces<UiProviderTest>().Produces<UiError>(StatusCodes.Status400BadRequest);
        api.MapPost("/settings/providers/{name}", UpdateProviderAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiProviderRequest))).Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status404NotFound)
            .Produces<UiError>(StatusCodes.Status409Conflict).Produces<UiProviderSaveRefused>(StatusCodes.Status422UnprocessableEntity);
        api.MapPost("/settings/providers/{name}/delete", DeleteProviderAsync).RequireAuthorization().Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status404NotFound).Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/settings/arr", (Delegate)AddArrAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiArrRequest))).Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status409Conflict)
            .Produces<UiArrSaveRefused>(StatusCodes.Status422UnprocessableEntity);
        api.MapPost("/settings/arr/test", TestArrAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiArrRequest))).Produces<UiArrTest>().Produces<UiError>(StatusCodes.Status400BadRequest);
        api.MapPost("/settings/arr/{name}", UpdateArrAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiArrRequest))).Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status404NotFound)
            .Produces<UiError>(StatusCodes.Status409Conflict).Produces<UiArrSaveRefused>(StatusCodes.Status422UnprocessableEntity);
        api.MapPost("/settings/arr/{name}/delete", DeleteArrAsync).RequireAuthorization().Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status404NotFound).Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/settings/api-key", RegenerateApiKeyAsync).RequireAuthorization().Produces<UiApiKey>().Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/settings/webdav", SaveWebDavAccountAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiWebDavAccountRequest))).Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status409Conflict);
    }

    internal static UiSettingsView View(IServiceProvider services)
    {
        var stored = services.GetRequiredService<StoredSettings>();
        var limiter = services.GetRequiredService<GlobalOperationLimiter>();
        var apiKeys = services.GetRequiredService<ApiKeyProvider>();
        var options = services.GetRequiredService<IOptionsMonitor<NzbDavOptions>>().CurrentValue;
        var dav = services.GetRequiredService<IOptionsMonitor<WebDavOptions>>().CurrentValue;
        var providers = stored.Providers().Select(p => new UiProvider(
            p.Options.Name, p.Options.Host, p.Options.Port, p.Options.UseTls, p.Options.AllowUntrustedCertificate, p.Options.User,
            !string.IsNullOrEmpty(p.Options.Password), p.Options.MaxConnections, p.Options.Role.ToString(), p.Options.Priority,
            p.Options.PipelineDepth, p.Options.Enabled, p.Editable, p.Source)).ToList();
        var settings = stored.Settings().Select(s => new UiSetting(
            s.Definition.Key, s.Definition.Section, s.Definition.Label, s.Definition.Help, s.Definition.Type.ToString(), s.Definition.Nullable,
            s.Definition.Min, s.Definition.Max, s.Definition.Choices, s.Definition.Automatic, s.Value, s.Stored, s.Locked, s.Source)).ToList();
        var arr = stored.ArrInstances().Select(a => new UiArrInstance(
            a.Options.Name, a.Options.Kind.ToString(), a.Options.Url, !string.IsNullOrEmpty(a.Options.ApiKey), a.Options.Enabled,
            a.Options.EffectiveCategories(), a.Options.Timeout.TotalSeconds, a.Editable, a.Source)).ToList();
        return new UiSettingsView(
            providers,
            LimiterView.Of(limiter.GetStats(), limiter.Options),
            settings,
            new UiSabSettings(apiKeys.ApiKey ?? "", !string.IsNullOrWhiteSpace(options.ApiKey)),
            new UiWebDavAccount(string.IsNullOrWhiteSpace(dav.User) ? "admin" : dav.User.Trim(), stored.IsLocked("NzbDav:WebDav:User"), !string.IsNullOrEmpty(dav.Password)),
            arr);
    }

    private static async Task<IResult> SaveSettingsAsync(HttpContext context, StoredSettings stored)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiSettingsChange>(context);
        if (problem is not null)
            return problem;
        if (request!.Values is not { Count: > 0 } values)
            return Results.BadRequest(new UiError("Name at least one setting in 'values'."));
        return await RefusedOrViewAsync(context, () => stored.SaveSettingsAsync(values, context.RequestAborted));
    }

    private static Task<IResult> AddProviderAsync(HttpContext context) => SaveProviderAsync(context, null);

    private static Task<IResult> UpdateProviderAsync(string name, HttpContext context) => SaveProviderAsync(context, name);

    private static async Task<IResult> SaveProviderAsync(HttpContext context, string? originalName)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiProviderRequest>(context);
        if (problem is not null)
            return problem;
        var services = context.RequestServices;
        var stored = services.GetRequiredService<StoredSettings>();
        var (provider, error) = ToOptions(request!);
        if (error is not null)
            return Results.BadRequest(new UiError(error));

        var before = originalName is null ? null : stored.Providers().FirstOrDefault(p => p.Editable && p.Options.Name.Equals(originalName, StringComparison.OrdinalIgnoreCase))?.Options;
        var effectivePassword = provider!.Password ?? (originalName is null ? null : stored.StoredPasswordOf(originalName));
        var candidate = provider with { Password = string.IsNullOrEmpty(effectivePassword) ? null : effectivePassword };
        if (!request!.Force && candidate.Enabled && (before is null || !SameConnection(before, candidate)))
        {
            var test = await services.GetRequiredService<ProviderTester>().TestAsync(candidate, context.RequestAborted);
            if (!test.Ok)
            {
                return Results.Json(new UiProviderSaveRefused($"Not saved: the test failed ({test.Error?.TrimEnd('.')}). Save anyway to keep it.", test),
                    statusCode: StatusCodes.Status422UnprocessableEntity);
            }
        }

        return await RefusedOrViewAsync(context, () => stored.SaveProviderAsync(originalName, provider, context.RequestAborted));
    }

    private static Task<IResult> DeleteProviderAsync(string name, HttpContext context, StoredSettings stored) =>
        RefusedOrViewAsync(context, () => stored.DeleteProviderAsync(name, context.RequestAborted));

    private static async Task<IResult> TestProviderAsync(HttpContext context, StoredSettings stored, ProviderTester tester)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiProviderRequest>(context);
        if (problem is not null)
            return problem;
        var (provider, error) = ToOptions(request!);
        if (error is not null)
            return Results.BadRequest(new UiError(error));
        if (provider!.Password is null && request!.OriginalName is { } original)
            provider = provider with { Password = stored.StoredPasswordOf(original) };
        return Results.Ok(await tester.TestAsync(provider, context.RequestAborted));
    }

    private static async Task<IResult> RegenerateApiKeyAsync(
        HttpContext context, ApiKeyProvider apiKeys, IOptionsMonitor<NzbDavOptions> options, IDbContextFactory<NzbDavDbContext> contextFactory, ILogger<ApiKeyProvider> logger)
    {
        if (!string.IsNullOrWhiteSpace(options.CurrentValue.ApiKey))
            return Results.Conflict(new UiError("The API key is set in the configuration (NzbDav:ApiKey); change it there."));
        var key = ApiKeyProvider.NewKey();
        await using (var db = await contextFactory.CreateDbContextAsync(context.RequestAborted))
            await StoredConfigItems.SetAsync(db, StoreInitializer.ApiKeyConfigKey, key, context.RequestAborted);

        // The old key is refused from this moment: Sonarr and Radarr need the new one.
        apiKeys.Set(key);
        logger.LogWarning("The SABnzbd API key was regenerated from the web UI; the old key no longer works");
        return Results.Ok(new UiApiKey(key));
    }

    private static async Task<IResult> SaveWebDavAccountAsync(
        HttpContext context, StoredSettings stored, WebDavCredentials credentials, IOptionsMonitor<WebDavOptions> options,
        IDbContextFactory<NzbDavDbContext> contextFactory, ILogger<WebDavCredentials> logger)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiWebDavAccountRequest>(context);
        if (problem is not null)
            return problem;
        var user = request!.User?.Trim();
        if (string.IsNullOrEmpty(user) || user.Contains(':', StringComparison.Ordinal) || user.Length > 128 || user.Any(char.IsControl))
            return Results.BadRequest(new UiError("The WebDAV user name must be 1 to 128 characters without ':' or control characters."));
        var settings = options.CurrentValue;
        var currentUser = string.IsNullOrWhiteSpace(settings.User) ? "admin" : settings.User.Trim();
        if (!string.IsNullOrEmpty(request.Password))
        {
            if (!string.IsNullOrEmpty(settings.Password))
                return Results.Conflict(new UiError("The WebDAV password is set in the configuration (NzbDav:WebDav:Password); change it there."));
            if (request.Password.Length < 8)
                return Results.BadRequest(new UiError("The WebDAV password must have at least 8 characters."));
        }

        if (user != currentUser)
        {
            var refused = await RefusedOrNullAsync(() => stored.SaveValuesAsync(new Dictionary<string, string?> { ["NzbDav:WebDav:User"] = user }, context.RequestAborted));
            if (refused is not null)
                return refused;
        }

        if (!string.IsNullOrEmpty(request.Password))
        {
            var hash = PasswordHash.Create(request.Password);
            await using var db = await contextFactory.CreateDbContextAsync(context.RequestAborted);
            await StoredConfigItems.SetAsync(db, WebDavCredentialInitializer.PasswordHashConfigKey, hash.ToString(), context.RequestAborted);
            credentials.Set(user, hash);
        }
        else
        {
            credentials.Rename(user);
        }

        logger.LogWarning("The WebDAV account was changed from the web UI (user {User}); rclone needs the new credentials", user);
        return Results.Ok(View(context.RequestServices));
    }

    private static async Task<IResult> RefusedOrViewAsync(HttpContext context, Func<Task> change) =>
        await RefusedOrNullAsync(change) ?? Results.Ok(View(context.RequestServices));

    private static async Task<IResult?> RefusedOrNullAsync(Func<Task> change)
    {
        try
        {
            await change();
            return null;
        }
        catch (SettingsRefusedException refused)
        {
            return refused.Kind switch
            {
                SettingsRefusal.NotFound => Results.NotFound(new UiError(refused.Message)),
                SettingsRefusal.Locked => Results.Conflict(new UiError(refused.Message)),
                _ => Results.BadRequest(new UiError(refused.Message)),
            };
        }
    }

    private static bool SameConnection(UsenetProviderOptions a, UsenetProviderOptions b) =>
        string.Equals(a.Host, b.Host, StringComparison.OrdinalIgnoreCase) && a.Port == b.Port && a.UseTls == b.UseTls
        && a.AllowUntrustedCertificate == b.AllowUntrustedCertificate && a.User == b.User && a.Password == b.Password;

    private static (UsenetProviderOptions? Provider, string? Error) ToOptions(UiProviderRequest request)
    {
        var name = request.Name?.Trim();
        var host = request.Host?.Trim();
        if (string.IsNullOrEmpty(name) || name.Length > 64 || name.Contains(':', StringComparison.Ordinal))
            return (null, "The provider needs a name of 1 to 64 characters without ':'.");
        if (string.IsNullOrEmpty(host) || host.Length > 253 || host.Any(char.IsWhiteSpace) || Uri.CheckHostName(host) == UriHostNameType.Unknown)
            return (null, $"'{request.Host}' is not a host name or address.");
        if (request.Port is not (>= 1 and <= 65535))
            return (null, "The port must be between 1 and 65535.");
        if (request.MaxConnections is not (>= 1 and <= 500))
            return (null, "Max connections must be between 1 and 500.");
        if (request.PipelineDepth is { } depth && depth is < 1 or > 64)
            return (null, "Pipeline depth must be between 1 and 64.");
        if (request.Priority is { } priority && priority is < 0 or > 1000)
            return (null, "Priority must be between 0 and 1000.");
        if (!Enum.TryParse<ProviderRole>(request.Role ?? nameof(ProviderRole.Primary), ignoreCase: true, out var role) || !Enum.IsDefined(role))
            return (null, "The role must be Primary or Backup.");
        if ((request.User?.AsSpan().ContainsAny('\r', '\n') ?? false) || (request.Password?.AsSpan().ContainsAny('\r', '\n') ?? false))
            return (null, "The user name and password cannot contain line breaks.");
        var user = string.IsNullOrWhiteSpace(request.User) ? null : request.User.Trim();
        return (new UsenetProviderOptions
        {
            Name = name,
            Host = host,
            Port = request.Port.Value,
            UseTls = request.UseTls ?? true,
            AllowUntrustedCertificate = request.AllowUntrustedCertificate ?? false,
            User = user,
            Password = request.Password,
            MaxConnections = request.MaxConnections.Value,
            Role = role,
            Priority = request.Priority ?? 0,
            PipelineDepth = request.PipelineDepth ?? 4,
            Enabled = request.Enabled ?? true,
        }, null);
    }
}

/// <summary>Everything the Settings page shows; <see cref="Arr"/> are the Sonarr and Radarr instances repairs go through.</summary>
public sealed record UiSettingsView(
    IReadOnlyList<UiProvider> Providers, LimiterView Budget, IReadOnlyList<UiSetting> Settings, UiSabSettings Sab, UiWebDavAccount WebDav,
    IReadOnlyList<UiArrInstance> Arr);

/// <summary>A provider; the password is never sent, only whether one is set. Only <see cref="Editable"/> ones (added in the UI) can be changed here.</summary>
public sealed record UiProvider(
    string Name, string Host, int Port, bool UseTls, bool AllowUntrustedCertificate, string? User, bool HasPassword,
    int MaxConnections, string Role, int Priority, int PipelineDepth, bool Enabled, bool Editable, string Source);

/// <summary>
/// A setting: <see cref="Value"/> is the one in effect (null: automatic, see <see cref="Automatic"/>),
/// <see cref="Stored"/> whether the UI set it, <see cref="Locked"/> whether the environment or the
/// command line does (then it cannot be changed here), <see cref="Source"/> which layer's value is in effect.
/// </summary>
public sealed record UiSetting(
    string Key, string Section, string Label, string Help, string Type, bool Nullable, long? Min, long? Max,
    IReadOnlyList<string>? Choices, string? Automatic, string? Value, bool Stored, bool Locked, string Source);

public sealed record UiSabSettings(string ApiKey, bool ApiKeyLocked);

public sealed record UiWebDavAccount(string User, bool UserLocked, bool PasswordLocked);

/// <summary>Settings to save by key: a value (as text), an empty text for "automatic", or null to drop the UI's value.</summary>
public sealed record UiSettingsChange(IReadOnlyDictionary<string, string?>? Values);

/// <summary>
/// A provider to add, change or test. A null password keeps the stored one (for a test, the one of
/// <see cref="OriginalName"/>); an empty one removes it. <see cref="Force"/> saves even when the test fails.
/// </summary>
public sealed record UiProviderRequest(
    string? Name, string? Host, int? Port, bool? UseTls, bool? AllowUntrustedCertificate, string? User, string? Password,
    int? MaxConnections, string? Role, int? Priority, int? PipelineDepth, bool? Enabled, bool Force = false, string? OriginalName = null);

public sealed record UiProviderSaveRefused(string Error, UiProviderTest Test);

public sealed record UiApiKey(string ApiKey);

/// <summary>The WebDAV account: the user name, and a new password (empty or null keeps the current one).</summary>
public sealed record UiWebDavAccountRequest(string? User, string? Password);
