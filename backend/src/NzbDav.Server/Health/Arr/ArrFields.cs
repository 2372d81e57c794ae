using System.Globalization;
using NzbDav.Usenet.Configuration;

namespace NzbDav.Server.Health.Arr;

/// <summary>
/// The one declaration of a Sonarr/Radarr instance's settings, as <see cref="NzbDav.Usenet.Providers.ProviderFields"/>
/// is for providers: validation (files, environment and web UI alike), storage of the UI's instances,
/// the UI's form and answers, the API's description, and which changes need a new test. The UI's
/// form layout is <c>frontend/src/pages/settings/ArrCard.tsx</c>.
/// </summary>
public static class ArrFields
{
    public static EntityFields<ArrInstanceOptions> All { get; } = new(
        static () => new ArrInstanceOptions(),
        new TextField<ArrInstanceOptions>(nameof(ArrInstanceOptions.Name), "name", "Name", static a => a.Name, static (a, v) => a with { Name = v ?? "" })
        {
            Required = true,
            MaxLength = 64,
            Forbidden = ":/\\?#",
            // The UI's test call is POST /settings/arr/test: an instance of that name could not be changed.
            Rule = static name => name.Equals("test", StringComparison.OrdinalIgnoreCase) ? "cannot be 'test' (it names the test call)" : null,
        },
        new ChoiceField<ArrInstanceOptions, ArrKind>(nameof(ArrInstanceOptions.Kind), "kind", "Kind", static a => a.Kind, static (a, v) => a with { Kind = v })
        {
            Required = true,
            Account = true,
        },
        new TextField<ArrInstanceOptions>(nameof(ArrInstanceOptions.Url), "url", "URL", static a => a.Url, static (a, v) => a with { Url = v?.TrimEnd('/') ?? "" })
        {
            Required = true,
            Account = true,
            IgnoreCase = true,
            MaxLength = 2048,
            Forbidden = " \t",
            Rule = static url => IsBaseAddress(url) ? null : "must be an http:// or https:// address such as http://sonarr:8989 (with its URL base, if it has one)",
            Placeholder = "http://sonarr:8989",
        },
        new TextField<ArrInstanceOptions>(nameof(ArrInstanceOptions.ApiKey), "apiKey", "API key", static a => a.ApiKey, static (a, v) => a with { ApiKey = v ?? "" }, secret: true)
        {
            Required = true,
            Account = true,
            MaxLength = 256,
        },
        new ListField<ArrInstanceOptions>(nameof(ArrInstanceOptions.Categories), "categories", "Categories", static a => a.Categories, static (a, v) => a with { Categories = v })
        {
            MaxLength = 64,
            Forbidden = ":/\\",
            Help = "Empty: every category.",
        },
        new NumberField<ArrInstanceOptions>(
            nameof(ArrInstanceOptions.Timeout), "timeoutSeconds", "Timeout (s)", static a => a.Timeout.TotalSeconds,
            static (a, v) => a with { Timeout = TimeSpan.FromSeconds(v) }, static v => TimeSpan.FromSeconds(v).ToString("c", CultureInfo.InvariantCulture))
        {
            Min = 1,
            Max = ArrInstanceOptions.MaxTimeout.TotalSeconds,
        },
        new BooleanField<ArrInstanceOptions>(nameof(ArrInstanceOptions.Enabled), "enabled", "Enabled", static a => a.Enabled, static (a, v) => a with { Enabled = v }));

    /// <summary>An absolute http(s) address without query, fragment or user info (the key goes in a header, never the URL).</summary>
    private static bool IsBaseAddress(string url) =>
        Uri.TryCreate(url, UriKind.Absolute, out var uri) && (uri.Scheme == Uri.UriSchemeHttp || uri.Scheme == Uri.UriSchemeHttps)
        && !string.IsNullOrEmpty(uri.Host) && string.IsNullOrEmpty(uri.Query) && string.IsNullOrEmpty(uri.Fragment) && string.IsNullOrEmpty(uri.UserInfo);
}
