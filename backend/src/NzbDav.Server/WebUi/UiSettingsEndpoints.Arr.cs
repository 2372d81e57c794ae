using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.WebUi;

// The Sonarr/Radarr instances of the Settings page: saved after a test (unless forced), tested, removed.
public static partial class UiSettingsEndpoints
{
    private static Task<IResult> AddArrAsync(HttpContext context) => SaveArrAsync(context, null);

    private static Task<IResult> UpdateArrAsync(string name, HttpContext context) => SaveArrAsync(context, name);

    private static async Task<IResult> SaveArrAsync(HttpContext context, string? originalName)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiArrRequest>(context);
        if (problem is not null)
            return problem;
        var services = context.RequestServices;
        var stored = services.GetRequiredService<StoredSettings>();
        var (instance, error) = ToArrOptions(request!);
        if (error is not null)
            return Results.BadRequest(new UiError(error));

        var before = originalName is null ? null : stored.ArrInstances().FirstOrDefault(a => a.Editable && a.Options.Name.Equals(originalName, StringComparison.OrdinalIgnoreCase))?.Options;
        if (originalName is not null && before is null)
            return await RefusedOrViewAsync(context, () => stored.SaveArrInstanceAsync(originalName, instance!, context.RequestAborted));

        // An empty key keeps the stored one: the UI never has it to send back.
        var candidate = string.IsNullOrEmpty(instance!.ApiKey) && before is not null ? instance with { ApiKey = before.ApiKey } : instance;
        if (!request!.Force && candidate.Enabled && (before is null || !SameConnection(before, candidate)))
        {
            var invalid = ValidationError(candidate);
            if (invalid is not null)
                return Results.BadRequest(new UiError(invalid));
            var test = ToUi(await services.GetRequiredService<ArrClient>().TestAsync(candidate, context.RequestAborted));
            if (!test.Ok)
            {
                return Results.Json(new UiArrSaveRefused($"Not saved: the test failed ({test.Error?.TrimEnd('.')}). Save anyway to keep it.", test),
                    statusCode: StatusCodes.Status422UnprocessableEntity);
            }
        }

        return await RefusedOrViewAsync(context, () => stored.SaveArrInstanceAsync(originalName, instance, context.RequestAborted));
    }

    private static Task<IResult> DeleteArrAsync(string name, HttpContext context, StoredSettings stored) =>
        RefusedOrViewAsync(context, () => stored.DeleteArrInstanceAsync(name, context.RequestAborted));

    private static async Task<IResult> TestArrAsync(HttpContext context, IOptionsMonitor<ArrOptions> arrOptions, ArrClient client)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiArrRequest>(context);
        if (problem is not null)
            return problem;
        var (instance, error) = ToArrOptions(request!);
        if (error is not null)
            return Results.BadRequest(new UiError(error));
        if (string.IsNullOrEmpty(instance!.ApiKey))
        {
            // Testing a saved instance (from any layer) without typing its key again; it stays on the server.
            var name = request!.OriginalName ?? instance.Name;
            var saved = arrOptions.CurrentValue.Instances.FirstOrDefault(i => i.Name.Equals(name, StringComparison.OrdinalIgnoreCase));
            instance = instance with { ApiKey = saved?.ApiKey ?? "" };
        }

        if (ValidationError(instance) is { } invalid)
            return Results.BadRequest(new UiError(invalid));
        return Results.Ok(ToUi(await client.TestAsync(instance, context.RequestAborted)));
    }

    private static UiArrTest ToUi(ArrTestResult test) => new(test.Ok, test.AppName, test.Version, test.Error);

    private static string? ValidationError(ArrInstanceOptions instance)
    {
        try
        {
            instance.Validate();
            return null;
        }
        catch (ArgumentException error)
        {
            return error.Message;
        }
    }

    private static bool SameConnection(ArrInstanceOptions a, ArrInstanceOptions b) =>
        a.Kind == b.Kind && string.Equals(a.Url.TrimEnd('/'), b.Url.TrimEnd('/'), StringComparison.OrdinalIgnoreCase) && a.ApiKey == b.ApiKey;

    private static (ArrInstanceOptions? Instance, string? Error) ToArrOptions(UiArrRequest request)
    {
        var name = request.Name?.Trim();
        if (string.IsNullOrEmpty(name) || name.Length > 64 || name.AsSpan().ContainsAny(":/\\?#"))
            return (null, "The instance needs a name of 1 to 64 characters without ':', '/', '\\', '?' or '#'.");
        if (name.Equals("test", StringComparison.OrdinalIgnoreCase))
            return (null, "'test' is reserved (it names the test call); choose another name.");
        if (!Enum.TryParse<ArrKind>(request.Kind ?? "", ignoreCase: true, out var kind) || !Enum.IsDefined(kind) || int.TryParse(request.Kind, out _))
            return (null, "The kind must be Sonarr or Radarr.");
        var url = request.Url?.Trim().TrimEnd('/') ?? "";
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri) || (uri.Scheme != Uri.UriSchemeHttp && uri.Scheme != Uri.UriSchemeHttps) || url.Any(char.IsWhiteSpace))
            return (null, $"'{request.Url}' is not an http:// or https:// address such as http://sonarr:8989 (with its URL base, if it has one).");
        if (request.ApiKey?.AsSpan().ContainsAny('\r', '\n') ?? false)
            return (null, "The API key cannot contain line breaks.");
        if (request.TimeoutSeconds is { } seconds && (double.IsNaN(seconds) || seconds < 1 || seconds > ArrInstanceOptions.MaxTimeout.TotalSeconds))
            return (null, $"The timeout must be between 1 and {ArrInstanceOptions.MaxTimeout.TotalSeconds:0} seconds.");
        var categories = (request.Categories ?? []).Select(static c => c?.Trim() ?? "").Where(static c => c.Length > 0)
            .Distinct(StringComparer.OrdinalIgnoreCase).ToList();
        if (categories.Any(static c => c.Length > 64 || c.AsSpan().ContainsAny(":/\\")))
            return (null, "A category is at most 64 characters, without ':', '/' or '\\'.");
        return (new ArrInstanceOptions
        {
            Name = name,
            Kind = kind,
            Url = url,
            ApiKey = request.ApiKey?.Trim() ?? "",
            Enabled = request.Enabled ?? true,
            Categories = categories,
            Timeout = TimeSpan.FromSeconds(request.TimeoutSeconds ?? 15),
        }, null);
    }
}

/// <summary>
/// A Sonarr or Radarr instance; the API key is never sent, only whether one is set. Only
/// <see cref="Editable"/> ones (added in the UI) can be changed here.
/// </summary>
public sealed record UiArrInstance(
    string Name, string Kind, string Url, bool HasApiKey, bool Enabled, IReadOnlyList<string> Categories, double TimeoutSeconds, bool Editable, string Source);

/// <summary>
/// A Sonarr or Radarr instance to add, change or test. <see cref="Kind"/> is <c>Sonarr</c> or
/// <c>Radarr</c>; an empty or null API key keeps the stored one (for a test, the one of
/// <see cref="OriginalName"/>, or of <see cref="Name"/>); empty <see cref="Categories"/> means any
/// category; <see cref="TimeoutSeconds"/> defaults to 15. <see cref="Force"/> saves even when the test fails.
/// </summary>
public sealed record UiArrRequest(
    string? Name, string? Kind, string? Url, string? ApiKey, bool? Enabled, IReadOnlyList<string>? Categories, double? TimeoutSeconds,
    bool Force = false, string? OriginalName = null);

/// <summary>The test of an instance: <see cref="Ok"/> when <c>system/status</c> answered with the key as the configured kind; <see cref="Error"/> says why not.</summary>
public sealed record UiArrTest(bool Ok, string? AppName, string? Version, string? Error);

public sealed record UiArrSaveRefused(string Error, UiArrTest Test);
