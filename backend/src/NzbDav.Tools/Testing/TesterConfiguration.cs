using NzbDav.Usenet.Providers;

namespace NzbDav.Tools.Testing;

/// <summary>The tester's configuration: appsettings, environment, then <c>--Section:Key=value</c> arguments.</summary>
internal static class TesterConfiguration
{
    public const string ProvidersSection = "Usenet:Providers";

    /// <exception cref="FullNzbTesterUsageException">A settings file is not valid JSON.</exception>
    public static IConfiguration Build(IReadOnlyList<string> overrides)
    {
        try
        {
            return BuildCore(overrides);
        }
        catch (Exception ex) when (ex is InvalidDataException or FormatException)
        {
            throw new FullNzbTesterUsageException($"The configuration cannot be read: {ex.Message}");
        }
    }

    private static IConfiguration BuildCore(IReadOnlyList<string> overrides)
    {
        var environment = Environment.GetEnvironmentVariable("DOTNET_ENVIRONMENT")
            ?? Environment.GetEnvironmentVariable("ASPNETCORE_ENVIRONMENT")
            ?? "Production";
        return new ConfigurationBuilder()
            .SetBasePath(AppContext.BaseDirectory)
            .AddJsonFile("appsettings.json", optional: true)
            .AddJsonFile($"appsettings.{environment}.json", optional: true)
            .AddEnvironmentVariables()
            .AddCommandLine([.. overrides])
            .Build();
    }

    /// <summary>The providers of <see cref="ProvidersSection"/>, validated.</summary>
    /// <exception cref="FullNzbTesterUsageException">None configured, or one is incomplete or invalid.</exception>
    public static IReadOnlyList<UsenetProviderOptions> ReadProviders(IConfiguration configuration)
    {
        UsenetProviderOptions[] providers;
        try
        {
            providers = configuration.GetSection(ProvidersSection).Get<UsenetProviderOptions[]>() ?? [];
        }
        catch (InvalidOperationException ex)
        {
            throw new FullNzbTesterUsageException($"{ProvidersSection} cannot be read: {ex.Message}");
        }

        if (providers.Length == 0)
        {
            throw new FullNzbTesterUsageException(
                $"No Usenet providers are configured. Add them to {ProvidersSection} (appsettings.json, environment variables like " +
                "Usenet__Providers__0__Host, or arguments like --Usenet:Providers:0:Host=news.example.com --Usenet:Providers:0:Name=main), " +
                "or use --mock-server.");
        }

        for (var i = 0; i < providers.Length; i++)
        {
            if (string.IsNullOrWhiteSpace(providers[i].Name) || string.IsNullOrWhiteSpace(providers[i].Host))
            {
                throw new FullNzbTesterUsageException($"{ProvidersSection}:{i} needs both Name and Host.");
            }
        }

        try
        {
            new UsenetOptions { Providers = providers }.Validate();
        }
        catch (ArgumentException ex)
        {
            throw new FullNzbTesterUsageException($"{ProvidersSection}: {ex.Message}");
        }

        return providers;
    }
}
