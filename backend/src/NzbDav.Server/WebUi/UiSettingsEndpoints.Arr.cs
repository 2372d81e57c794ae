using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.WebUi;

// The Sonarr/Radarr instances of the Settings page: saved after a test (unless forced), tested, removed.
public static partial class UiSettingsEndpoints
{
    private static Task<IResult> AddArrAsync(HttpContext context, StoredSettings stored, ArrClient client, UiSettingsViews views) =>
        SaveArrAsync(context, null, stored, client, views);

    private static Task<IResult> UpdateArrAsync(string name, HttpContext context, StoredSettings stored, ArrClient client, UiSettingsViews views) =>
        SaveArrAsync(context, name, stored, client, views);

    private static async Task<IResult> SaveArrAsync(HttpContext context, string? originalName, StoredSettings stored, ArrClient client, UiSettingsViews views)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiArrRequest>(context);
        if (problem is not null)
            return problem;
        var before = originalName is null ? null : stored.ArrInstances().FirstOrDefault(a => a.Editable && a.Options.Name.Equals(originalName, StringComparison.OrdinalIgnoreCase))?.Options;
        if (originalName is not null && before is null)
            return await views.RefusedOrViewAsync(() => Task.FromException(stored.NotOurArr(originalName)));

        // An API key the request leaves out (the UI never has it) is the stored one.
        var fields = ArrFields.All;
        var (instance, refused) = fields.Read(request!.Fields, before is null ? fields.New() : fields.WithSecretsOf(fields.New(), before));
        if (refused is not null)
            return Results.BadRequest(new UiError(refused.Message, refused.Field.JsonName));
        if (!request.Force && instance.Enabled && (before is null || !fields.SameAccount(before, instance)))
        {
            var test = ToUi(await client.TestAsync(instance, context.RequestAborted));
            if (!test.Ok)
            {
                return Results.Json(new UiArrSaveRefused($"Not saved: the test failed ({test.Error?.TrimEnd('.')}). Save anyway to keep it.", test),
                    statusCode: StatusCodes.Status422UnprocessableEntity);
            }
        }

        return await views.RefusedOrViewAsync(() => stored.SaveArrInstanceAsync(originalName, instance, context.RequestAborted));
    }

    private static Task<IResult> DeleteArrAsync(string name, HttpContext context, StoredSettings stored, UiSettingsViews views) =>
        views.RefusedOrViewAsync(() => stored.DeleteArrInstanceAsync(name, context.RequestAborted));

    private static async Task<IResult> TestArrAsync(HttpContext context, IOptionsMonitor<ArrOptions> arrOptions, ArrClient client)
    {
        var (request, problem) = await UiSessionEndpoints.ReadAsync<UiArrRequest>(context);
        if (problem is not null)
            return problem;
        // Testing a saved instance (from any layer) without typing its key again; it stays on the server.
        var fields = ArrFields.All;
        var named = request!.OriginalName
            ?? (request.Fields is { } sent && sent.FirstOrDefault(p => p.Key.Equals("name", StringComparison.OrdinalIgnoreCase)).Value is { ValueKind: System.Text.Json.JsonValueKind.String } name
                ? name.GetString()
                : null);
        var saved = named is null ? null : arrOptions.CurrentValue.Instances.FirstOrDefault(i => i.Name.Equals(named.Trim(), StringComparison.OrdinalIgnoreCase));
        var (instance, refused) = fields.Read(request.Fields, saved is null ? fields.New() : fields.WithSecretsOf(fields.New(), saved));
        if (refused is not null)
            return Results.BadRequest(new UiError(refused.Message, refused.Field.JsonName));
        return Results.Ok(ToUi(await client.TestAsync(instance, context.RequestAborted)));
    }

    private static UiArrTest ToUi(ArrTestResult test) => new(test.Ok, test.AppName, test.Version, test.Error);
}

/// <summary>The test of an instance: <see cref="Ok"/> when <c>system/status</c> answered with the key as the configured kind; <see cref="Error"/> says why not.</summary>
public sealed record UiArrTest(bool Ok, string? AppName, string? Version, string? Error);

public sealed record UiArrSaveRefused(string Error, UiArrTest Test);
