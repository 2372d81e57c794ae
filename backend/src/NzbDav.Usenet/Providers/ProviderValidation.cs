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

        // The allowances, their periods and the speed cap are fields of ProviderFields: checked above.
        if (provider.CloseTimeout < TimeSpan.Zero)
        {
            throw new ArgumentException($"CloseTimeout of provider '{provider.Name}' is {provider.CloseTimeout}; it cannot be negative.");
        }
    }
}
