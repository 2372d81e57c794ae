using System.Collections.Concurrent;
using Microsoft.Extensions.Options;

namespace NzbDav.Server.Configuration;

/// <summary>
/// Builds options as the framework does (bind, configure, validate), and remembers the last valid
/// result. The first build of a name must be valid (ValidateOnStart turns a bad start into a clear
/// failure); a later change that fails validation is refused: it is logged and the running settings
/// stay. Without this, an invalid edit would throw from inside the configuration reload, out of a
/// file watcher or a settings write, instead of being reported.
/// </summary>
internal sealed class LastGoodOptionsFactory<TOptions>(
    IEnumerable<IConfigureOptions<TOptions>> setups,
    IEnumerable<IPostConfigureOptions<TOptions>> postConfigures,
    IEnumerable<IValidateOptions<TOptions>> validations,
    ILogger<LastGoodOptionsFactory<TOptions>> logger) : IOptionsFactory<TOptions>
    where TOptions : class
{
    private readonly OptionsFactory<TOptions> _inner = new(setups, postConfigures, validations);
    private readonly ConcurrentDictionary<string, TOptions> _lastGood = new(StringComparer.Ordinal);

    public TOptions Create(string name)
    {
        try
        {
            var options = _inner.Create(name);
            _lastGood[name] = options;
            return options;
        }
        catch (OptionsValidationException error) when (_lastGood.TryGetValue(name, out var running))
        {
            logger.LogError("A change to the {Settings} settings was refused; the running ones stay: {Reasons}",
                typeof(TOptions).Name, string.Join("; ", error.Failures));
            return running;
        }
    }
}
