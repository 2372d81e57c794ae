namespace NzbDav.Usenet.Providers;

/// <summary>Checks a provider's settings and names the one that is wrong.</summary>
internal static class ProviderValidation
{
    public static void Validate(UsenetProviderOptions provider)
    {
        if (string.IsNullOrWhiteSpace(provider.Name))
        {
            throw new ArgumentException("Every provider needs a Name.");
        }

        // The same rules the web UI applies, from the one declaration of the fields.
        if (ProviderFields.All.FirstProblem(provider) is { } problem)
        {
            throw new ArgumentException(problem.MessageFor($"provider '{provider.Name}'"));
        }

        if (provider.OperationTimeout <= TimeSpan.Zero || provider.IdleTimeout <= TimeSpan.Zero)
        {
            throw new ArgumentException($"OperationTimeout and IdleTimeout of provider '{provider.Name}' must be positive.");
        }

        if (provider.DailyQuotaBytes is <= 0)
        {
            throw new ArgumentException($"DailyQuotaBytes of provider '{provider.Name}' is {provider.DailyQuotaBytes}; an allowance must be above 0 (leave it empty for none).");
        }

        if (provider.MonthlyQuotaBytes is <= 0)
        {
            throw new ArgumentException($"MonthlyQuotaBytes of provider '{provider.Name}' is {provider.MonthlyQuotaBytes}; an allowance must be above 0 (leave it empty for none).");
        }

        if (provider.WindowQuotaBytes is <= 0)
        {
            throw new ArgumentException($"WindowQuotaBytes of provider '{provider.Name}' is {provider.WindowQuotaBytes}; an allowance must be above 0 (leave it empty for none).");
        }

        if (provider.QuotaWindowHours is < 1 or > 8760)
        {
            throw new ArgumentException($"QuotaWindowHours of provider '{provider.Name}' is {provider.QuotaWindowHours}; it must be from 1 to 8760 hours.");
        }

        if (provider.QuotaResetDay is < 1 or > 28)
        {
            throw new ArgumentException($"QuotaResetDay of provider '{provider.Name}' is {provider.QuotaResetDay}; it must be a day from 1 to 28.");
        }

        if (provider.CloseTimeout < TimeSpan.Zero)
        {
            throw new ArgumentException($"CloseTimeout of provider '{provider.Name}' is {provider.CloseTimeout}; it cannot be negative.");
        }
    }
}
