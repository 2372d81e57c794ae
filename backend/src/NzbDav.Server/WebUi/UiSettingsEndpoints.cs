using Microsoft.Extensions.Options;
using NzbDav.Server.Auth;
using NzbDav.Server.Configuration;
using NzbDav.Server.Health.Arr;
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
        api.MapGet("/settings", static (UiSettingsViews views) => Results.Ok(views.View())).RequireAuthorization().Produces<UiSettingsView>();
        api.MapPost("/settings", SaveSettingsAsync).RequireAuthorization()
            .WithMetadata(new UiRequestBody(typeof(UiSettingsChange))).Produces<UiSettingsView>()
            .Produces<UiError>(StatusCodes.Status400BadRequest).Produces<UiError>(StatusCodes.Status409Conflict);
        api.MapPost("/settings/providers", AddProviderAsync).RequireAuthorization()
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
        api.MapPost("/settings/arr", AddArrAsync).RequireAuthorization()
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

    private static async Task<IResult> SaveSettingsAsync(HttpContext context, StoredSettings stored, UiSettingsViews views)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiSettingsChange>(context);
        if (problem is not null)
            return problem;
        if (request!.Values is not { Count: > 0 } values)
            return Results.BadRequest(new UiError("Name at least one setting in 'values'."));
        return await views.RefusedOrViewAsync(() => stored.SaveSettingsAsync(values, context.RequestAborted));
    }

    private static Task<IResult> AddProviderAsync(HttpContext context, StoredSettings stored, ProviderTester tester, UiSettingsViews views) =>
        SaveProviderAsync(context, null, stored, tester, views);

    private static Task<IResult> UpdateProviderAsync(string name, HttpContext context, StoredSettings stored, ProviderTester tester, UiSettingsViews views) =>
        SaveProviderAsync(context, name, stored, tester, views);

    private static async Task<IResult> SaveProviderAsync(HttpContext context, string? originalName, StoredSettings stored, ProviderTester tester, UiSettingsViews views)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiProviderRequest>(context);
        if (problem is not null)
            return problem;
        var before = originalName is null ? null : stored.Providers().FirstOrDefault(p => p.Editable && p.Options.Name.Equals(originalName, StringComparison.OrdinalIgnoreCase))?.Options;
        if (originalName is not null && before is null)
            return await views.RefusedOrViewAsync(() => stored.DeleteProviderAsync(originalName, context.RequestAborted));

        // A password the request leaves out (the UI never has it) is the stored one.
        var fields = ProviderFields.All;
        var (provider, refused) = fields.Read(request!.Fields, before is null ? fields.New() : fields.WithSecretsOf(fields.New(), before));
        if (refused is not null)
            return Results.BadRequest(new UiError(refused.Message, refused.Field.JsonName));
        if (!request.Force && provider.Enabled && (before is null || !fields.SameAccount(before, provider)))
        {
            var test = await tester.TestAsync(provider, context.RequestAborted);
            if (!test.Ok)
            {
                return Results.Json(new UiProviderSaveRefused($"Not saved: the test failed ({test.Error?.TrimEnd('.')}). Save anyway to keep it.", test),
                    statusCode: StatusCodes.Status422UnprocessableEntity);
            }
        }

        return await views.RefusedOrViewAsync(() => stored.SaveProviderAsync(originalName, provider, context.RequestAborted));
    }

    private static Task<IResult> DeleteProviderAsync(string name, HttpContext context, StoredSettings stored, UiSettingsViews views) =>
        views.RefusedOrViewAsync(() => stored.DeleteProviderAsync(name, context.RequestAborted));

    private static async Task<IResult> TestProviderAsync(HttpContext context, StoredSettings stored, ProviderTester tester)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiProviderRequest>(context);
        if (problem is not null)
            return problem;
        var fields = ProviderFields.All;
        var saved = request!.OriginalName is { } original
            ? stored.Providers().FirstOrDefault(p => p.Editable && p.Options.Name.Equals(original, StringComparison.OrdinalIgnoreCase))?.Options
            : null;
        var (provider, refused) = fields.Read(request.Fields, saved is null ? fields.New() : fields.WithSecretsOf(fields.New(), saved));
        if (refused is not null)
            return Results.BadRequest(new UiError(refused.Message, refused.Field.JsonName));
        return Results.Ok(await tester.TestAsync(provider, context.RequestAborted));
    }

    private static async Task<IResult> RegenerateApiKeyAsync(HttpContext context, ApiKeyProvider apiKeys, StoredSecrets secrets, ILogger<ApiKeyProvider> logger)
    {
        if (apiKeys.Configured is not null)
            return Results.Conflict(new UiError("The API key is set in the configuration (NzbDav:ApiKey); change it there."));
        var key = ApiKeyProvider.NewKey();
        // In effect for every check from the moment it is stored: the old key is refused, Sonarr and Radarr need the new one.
        await secrets.SetAsync(new Dictionary<string, string> { [StoredSecretsSource.ApiKey] = key }, context.RequestAborted);
        logger.LogWarning("The SABnzbd API key was regenerated from the web UI; the old key no longer works");
        return Results.Ok(new UiApiKey(key));
    }

    private static async Task<IResult> SaveWebDavAccountAsync(
        HttpContext context, StoredSettings stored, StoredSecrets secrets, WebDavCredentials credentials, IOptionsMonitor<WebDavOptions> options,
        UiSettingsViews views, ILogger<WebDavCredentials> logger)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiWebDavAccountRequest>(context);
        if (problem is not null)
            return problem;
        var user = request!.User?.Trim();
        if (string.IsNullOrEmpty(user) || user.Contains(':', StringComparison.Ordinal) || user.Length > 128 || user.Any(char.IsControl))
            return Results.BadRequest(new UiError("The WebDAV user name must be 1 to 128 characters without ':' or control characters.", "user"));
        var settings = options.CurrentValue;
        if (!string.IsNullOrEmpty(request.Password))
        {
            if (!string.IsNullOrEmpty(settings.Password) || !secrets.Owns(StoredSecretsSource.WebDavPasswordHash))
                return Results.Conflict(new UiError("The WebDAV password is set in the configuration (NzbDav:WebDav:Password); change it there."));
            if (request.Password.Length < 8)
                return Results.BadRequest(new UiError("The WebDAV password must have at least 8 characters.", "password"));
        }

        if (user != credentials.User)
        {
            var refused = await UiSettingsViews.RefusedOrNullAsync(() => stored.SaveValuesAsync(new Dictionary<string, string?> { ["NzbDav:WebDav:User"] = user }, context.RequestAborted));
            if (refused is not null)
                return refused;
        }

        if (!string.IsNullOrEmpty(request.Password))
        {
            await secrets.SetAsync(
                new Dictionary<string, string> { [StoredSecretsSource.WebDavPasswordHash] = PasswordHash.Create(request.Password).ToString() }, context.RequestAborted);
        }

        logger.LogWarning("The WebDAV account was changed from the web UI (user {User}); rclone needs the new credentials", user);
        return Results.Ok(views.View());
    }
}

/// <summary>
/// The Settings page's answer (<see cref="View"/>), and the one way a refused change becomes an
/// answer (<see cref="RefusedOrViewAsync"/>): 400 for an unacceptable value, 404 for a missing
/// entity, 409 for one a file or the environment owns.
/// </summary>
public sealed class UiSettingsViews(
    StoredSettings stored, GlobalOperationLimiter limiter, ApiKeyProvider apiKeys, StoredSecrets secrets, WebDavCredentials credentials,
    IOptionsMonitor<WebDavOptions> davOptions)
{
    public UiSettingsView View()
    {
        var settings = stored.Settings().Select(s => new UiSetting(
            s.Definition.Key, s.Definition.Section, s.Definition.Label, s.Definition.Help, s.Definition.Type.ToString(), s.Definition.Nullable,
            s.Definition.Min, s.Definition.Max, s.Definition.Choices, s.Definition.Automatic, s.Value, s.Stored, s.Locked, s.Source)).ToList();
        var dav = davOptions.CurrentValue;
        return new UiSettingsView(
            [.. stored.Providers().Select(UiProvider.Of)],
            UiField.Of(ProviderFields.All),
            LimiterView.Of(limiter.GetStats(), limiter.Options),
            settings,
            new UiSabSettings(apiKeys.ApiKey ?? "", apiKeys.Configured is not null),
            new UiWebDavAccount(credentials.User, stored.IsLocked("NzbDav:WebDav:User"), !string.IsNullOrEmpty(dav.Password) || !secrets.Owns(StoredSecretsSource.WebDavPasswordHash)),
            [.. stored.ArrInstances().Select(UiArrInstance.Of)],
            UiField.Of(ArrFields.All));
    }

    public async Task<IResult> RefusedOrViewAsync(Func<Task> change) =>
        await RefusedOrNullAsync(change) ?? Results.Ok(View());

    public static async Task<IResult?> RefusedOrNullAsync(Func<Task> change)
    {
        ArgumentNullException.ThrowIfNull(change);
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
}

/// <summary>Everything the Settings page shows; <see cref="Arr"/> are the Sonarr and Radarr instances repairs go through.</summary>
public sealed record UiSettingsView(
    IReadOnlyList<UiProvider> Providers, IReadOnlyList<UiField> ProviderFields, LimiterView Budget, IReadOnlyList<UiSetting> Settings, UiSabSettings Sab,
    UiWebDavAccount WebDav, IReadOnlyList<UiArrInstance> Arr, IReadOnlyList<UiField> ArrFields);

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

public sealed record UiProviderSaveRefused(string Error, UiProviderTest Test);

public sealed record UiApiKey(string ApiKey);

/// <summary>The WebDAV account: the user name, and a new password (empty or null keeps the current one).</summary>
public sealed record UiWebDavAccountRequest(string? User, string? Password);
