using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebUi;

/// <summary>
/// At start, after the store is migrated: applies a configured admin
/// (<c>NzbDav:Ui:AdminUser</c>/<c>AdminPassword</c>) when it differs from the stored one; and when
/// there is still no account, logs the one-time setup code the first visitor must enter.
/// </summary>
public sealed class UiAccountInitializer(UiAccountStore accounts, IOptions<NzbDavOptions> options, ILogger<UiAccountInitializer> logger) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value.Ui;
        if (!string.IsNullOrWhiteSpace(settings.AdminUser) && !string.IsNullOrEmpty(settings.AdminPassword))
        {
            var user = settings.AdminUser.Trim();
            if (accounts.Verify(user, settings.AdminPassword) is null)
            {
                var replaced = accounts.Current is not null;
                await accounts.SetAsync(user, settings.AdminPassword, cancellationToken);
                if (replaced)
                {
                    logger.LogWarning("The web UI's administrator was reset from the configuration to user {User}; every earlier session has ended. Remove NzbDav:Ui:AdminPassword from the configuration once you have logged in", user);
                }
            }
        }

        if (accounts.IssueSetupCode() is { } code)
        {
            logger.LogWarning("No web UI account exists yet. Open the UI (/ui/) and enter the setup code {SetupCode} to create the administrator; the code changes at every start until then", code);
        }
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
