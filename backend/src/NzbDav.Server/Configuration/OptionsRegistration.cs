using Microsoft.Extensions.Options;

namespace NzbDav.Server.Configuration;

/// <summary>The one way settings reach the code: bound from configuration, validated at start, watched for changes.</summary>
internal static class OptionsRegistration
{
    /// <summary>
    /// Binds <typeparamref name="TOptions"/> to <paramref name="section"/> for <c>IOptionsMonitor</c>,
    /// validated by <paramref name="validate"/> (which throws <see cref="ArgumentException"/> naming
    /// the setting) at start and on every change; an invalid change keeps the running settings.
    /// </summary>
    public static IServiceCollection AddValidatedOptions<TOptions>(this IServiceCollection services, IConfiguration section, Action<TOptions> validate)
        where TOptions : class
    {
        services.AddOptions<TOptions>().Bind(section).ValidateOnStart();
        services.AddSingleton<IValidateOptions<TOptions>>(new ThrowingValidator<TOptions>(validate));
        services.AddSingleton<IOptionsFactory<TOptions>, LastGoodOptionsFactory<TOptions>>();
        return services;
    }

    private sealed class ThrowingValidator<TOptions>(Action<TOptions> validate) : IValidateOptions<TOptions>
        where TOptions : class
    {
        public ValidateOptionsResult Validate(string? name, TOptions options)
        {
            try
            {
                validate(options);
                return ValidateOptionsResult.Success;
            }
            catch (ArgumentException error)
            {
                return ValidateOptionsResult.Fail(error.Message);
            }
        }
    }
}
