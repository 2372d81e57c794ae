using NzbDav.Usenet.Configuration;

namespace NzbDav.Usenet.Providers;

/// <summary>
/// The one declaration of a provider's user-facing settings: validation (for files, the environment
/// and the web UI alike), storage of the UI's providers, the UI's form and answers, the API's
/// description, and which changes re-point the account. To add a setting: add its property to
/// <see cref="UsenetProviderOptions"/>, declare it here, and place it in the UI's form layout
/// (<c>frontend/src/pages/settings/ProvidersCard.tsx</c>).
/// </summary>
public static class ProviderFields
{
    public static EntityFields<UsenetProviderOptions> All { get; } = new(
        static () => new UsenetProviderOptions { Name = "", Host = "" },
        new TextField<UsenetProviderOptions>(nameof(UsenetProviderOptions.Name), "name", "Name", static p => p.Name, static (p, v) => p with { Name = v ?? "" })
        {
            Required = true,
            MaxLength = 64,
            Forbidden = ":",
        },
        new TextField<UsenetProviderOptions>(nameof(UsenetProviderOptions.Host), "host", "Host", static p => p.Host, static (p, v) => p with { Host = v ?? "" })
        {
            Required = true,
            Account = true,
            IgnoreCase = true,
            MaxLength = 253,
            Forbidden = " \t",
            Rule = static host => IsHost(host) ? null : "is not a host name or address",
            Placeholder = "news.example.com",
        },
        new IntegerField<UsenetProviderOptions>(nameof(UsenetProviderOptions.Port), "port", "Port", static p => p.Port, static (p, v) => p with { Port = v })
        {
            Account = true,
            Min = 1,
            Max = 65535,
        },
        new BooleanField<UsenetProviderOptions>(nameof(UsenetProviderOptions.UseTls), "useTls", "TLS", static p => p.UseTls, static (p, v) => p with { UseTls = v })
        {
            Account = true,
            Help = "Implicit TLS, as on port 563.",
        },
        new BooleanField<UsenetProviderOptions>(
            nameof(UsenetProviderOptions.AllowUntrustedCertificate), "allowUntrustedCertificate", "Allow untrusted certificate",
            static p => p.AllowUntrustedCertificate, static (p, v) => p with { AllowUntrustedCertificate = v })
        {
            Account = true,
            Help = "Only for a server with a self-signed certificate.",
        },
        new TextField<UsenetProviderOptions>(nameof(UsenetProviderOptions.User), "user", "User", static p => p.User, static (p, v) => p with { User = v })
        {
            Account = true,
            MaxLength = 256,
        },
        new TextField<UsenetProviderOptions>(nameof(UsenetProviderOptions.Password), "password", "Password", static p => p.Password, static (p, v) => p with { Password = v }, secret: true)
        {
            Account = true,
            MaxLength = 256,
        },
        new IntegerField<UsenetProviderOptions>(
            nameof(UsenetProviderOptions.MaxConnections), "maxConnections", "Max connections", static p => p.MaxConnections, static (p, v) => p with { MaxConnections = v })
        {
            Min = 1,
            Max = 500,
            Help = "Providers ban accounts that open more.",
        },
        new ChoiceField<UsenetProviderOptions, ProviderRole>(nameof(UsenetProviderOptions.Role), "role", "Role", static p => p.Role, static (p, v) => p with { Role = v })
        {
            Help = "A backup is asked only for what the primaries lack or fail; a block account only for what every other provider lacks.",
        },
        new IntegerField<UsenetProviderOptions>(nameof(UsenetProviderOptions.Priority), "priority", "Priority", static p => p.Priority, static (p, v) => p with { Priority = v })
        {
            Min = 0,
            Max = 1000,
            Help = "Lower is tried first.",
        },
        new IntegerField<UsenetProviderOptions>(
            nameof(UsenetProviderOptions.PipelineDepth), "pipelineDepth", "Pipeline depth", static p => p.PipelineDepth, static (p, v) => p with { PipelineDepth = v })
        {
            Min = 1,
            Max = 64,
        },
        new BytesField<UsenetProviderOptions>(
            nameof(UsenetProviderOptions.MaxBytesPerSecond), "maxBytesPerSecond", "Max speed (per second)", static p => p.MaxBytesPerSecond, static (p, v) => p with { MaxBytesPerSecond = v })
        {
            Min = Limiting.BandwidthSchedule.MinimumRate,
            Max = 100L * 1024 * 1024 * 1024,
            Help = "This provider's own cap, under the global one (Settings → Bandwidth). Empty: none.",
        },
        new BytesField<UsenetProviderOptions>(
            nameof(UsenetProviderOptions.DailyQuotaBytes), "dailyQuotaBytes", "Daily allowance", static p => p.DailyQuotaBytes, static (p, v) => p with { DailyQuotaBytes = v })
        {
            Min = 1,
            Help = "Bytes it may send per day (UTC); at it the provider is passed over until midnight UTC. Empty: none.",
        },
        new BytesField<UsenetProviderOptions>(
            nameof(UsenetProviderOptions.MonthlyQuotaBytes), "monthlyQuotaBytes", "Monthly allowance", static p => p.MonthlyQuotaBytes, static (p, v) => p with { MonthlyQuotaBytes = v })
        {
            Min = 1,
            Help = "Bytes it may send per month, from the reset day. Empty: none.",
        },
        new IntegerField<UsenetProviderOptions>(nameof(UsenetProviderOptions.QuotaResetDay), "quotaResetDay", "Month starts on day", static p => p.QuotaResetDay, static (p, v) => p with { QuotaResetDay = v })
        {
            Min = 1,
            Max = 28,
            Help = "The day of the month the monthly allowance starts again (00:00 UTC).",
        },
        new BytesField<UsenetProviderOptions>(
            nameof(UsenetProviderOptions.WindowQuotaBytes), "windowQuotaBytes", "Allowance per window", static p => p.WindowQuotaBytes, static (p, v) => p with { WindowQuotaBytes = v })
        {
            Min = 1,
            Help = "Never more than this in the last window of hours below. Empty: none.",
        },
        new IntegerField<UsenetProviderOptions>(nameof(UsenetProviderOptions.QuotaWindowHours), "quotaWindowHours", "Window (hours)", static p => p.QuotaWindowHours, static (p, v) => p with { QuotaWindowHours = v })
        {
            Min = 1,
            Max = 8760,
        },
        new BooleanField<UsenetProviderOptions>(nameof(UsenetProviderOptions.Enabled), "enabled", "Enabled", static p => p.Enabled, static (p, v) => p with { Enabled = v })
        {
        });

    /// <summary>A DNS name or an IP address; underscores are taken too (container names carry them).</summary>
    private static bool IsHost(string host) =>
        Uri.CheckHostName(host) != UriHostNameType.Unknown
        || host.All(static c => char.IsAsciiLetterOrDigit(c) || c is '.' or '-' or '_');
}
