using System.Collections.Concurrent;
using System.Globalization;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using NzbDav.Server.Health.Arr;

namespace NzbDav.Server.Tests.Health.Arr;

/// <summary>
/// The Arr integration as the host registers it (<see cref="ArrServiceCollectionExtensions.AddArrIntegration"/>),
/// on an <c>Arr</c> configuration section made of the given instances, with every log line kept as text.
/// </summary>
public sealed class ArrTestServices : IDisposable
{
    private readonly ServiceProvider _provider;

    public ArrTestServices(params ArrInstanceOptions[] instances)
        : this(TimeProvider.System, instances)
    {
    }

    /// <summary>As above, with the calls' timeouts on <paramref name="time"/>.</summary>
    public ArrTestServices(TimeProvider time, params ArrInstanceOptions[] instances)
    {
        var data = new Dictionary<string, string?>();
        for (var i = 0; i < instances.Length; i++)
        {
            var prefix = $"Arr:Instances:{i}:";
            var instance = instances[i];
            data[prefix + "Name"] = instance.Name;
            data[prefix + "Kind"] = instance.Kind.ToString();
            data[prefix + "Url"] = instance.Url;
            data[prefix + "ApiKey"] = instance.ApiKey;
            data[prefix + "Enabled"] = instance.Enabled ? "true" : "false";
            data[prefix + "Timeout"] = instance.Timeout.ToString("c", CultureInfo.InvariantCulture);
            for (var c = 0; c < instance.Categories.Count; c++)
                data[$"{prefix}Categories:{c}"] = instance.Categories[c];
        }

        var configuration = new ConfigurationBuilder().AddInMemoryCollection(data).Build();
        var services = new ServiceCollection();
        services.AddLogging(logging => logging.SetMinimumLevel(LogLevel.Trace).AddProvider(new Capture(Log)));
        services.AddSingleton(time);
        services.AddArrIntegration(configuration);
        _provider = services.BuildServiceProvider(new ServiceProviderOptions { ValidateOnBuild = true, ValidateScopes = true });
    }

    /// <summary>Every log line, formatted, in order.</summary>
    public ConcurrentQueue<string> Log { get; } = new();

    public IArrRepairService Repair => _provider.GetRequiredService<IArrRepairService>();

    public ArrClient Client => _provider.GetRequiredService<ArrClient>();

    public void Dispose() => _provider.Dispose();

    private sealed class Capture(ConcurrentQueue<string> log) : ILoggerProvider
    {
        public ILogger CreateLogger(string categoryName) => new Logger(categoryName, log);

        public void Dispose()
        {
        }

        private sealed class Logger(string category, ConcurrentQueue<string> log) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => true;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
                log.Enqueue($"{logLevel} {category}: {formatter(state, exception)} {exception}");
        }
    }
}
