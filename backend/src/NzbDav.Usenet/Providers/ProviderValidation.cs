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

        if (provider.MaxConnections < 1)
        {
            throw new ArgumentException($"MaxConnections of provider '{provider.Name}' is {provider.MaxConnections}; it must be at least 1.");
        }

        if (provider.PipelineDepth < 1)
        {
            throw new ArgumentException($"PipelineDepth of provider '{provider.Name}' is {provider.PipelineDepth}; it must be at least 1.");
        }

        if (provider.OperationTimeout <= TimeSpan.Zero || provider.IdleTimeout <= TimeSpan.Zero)
        {
            throw new ArgumentException($"OperationTimeout and IdleTimeout of provider '{provider.Name}' must be positive.");
        }

        if (provider.CloseTimeout < TimeSpan.Zero)
        {
            throw new ArgumentException($"CloseTimeout of provider '{provider.Name}' is {provider.CloseTimeout}; it cannot be negative.");
        }
    }
}
