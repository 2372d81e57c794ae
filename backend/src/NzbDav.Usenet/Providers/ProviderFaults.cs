using System.Net.Sockets;
using System.Security.Authentication;
using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Providers;

/// <summary>Provider failures in words a user can act on, for the provider test and the dashboard alike.</summary>
public static class ProviderFaults
{
    /// <summary>
    /// What went wrong, as something to do: the usual mistakes (TLS ticked for a plain port or not
    /// for a TLS one, a wrong host or port, a wrong login) are named with their fix; anything else
    /// keeps the system's own words. Never repeats the step's name, which the caller puts first.
    /// </summary>
    public static string Explain(Exception error, UsenetProviderOptions provider, TimeSpan deadline)
    {
        ArgumentNullException.ThrowIfNull(error);
        ArgumentNullException.ThrowIfNull(provider);
        var where = $"{provider.Host}:{provider.Port}";
        var plainPortHint = provider.Port == 563 || provider.Port == 443
            ? $" Port {provider.Port} usually needs TLS: tick TLS."
            : "";
        switch (error)
        {
            case NntpTimeoutException:
                return $"no answer from {where} within {provider.OperationTimeout.TotalSeconds:0} s: check the host and port, and that no firewall drops the connection.{(provider.UseTls ? "" : plainPortHint)}";
            case OperationCanceledException:
                return $"no answer from {where} within {deadline.TotalSeconds:0} s: check the host and port.{(provider.UseTls ? "" : plainPortHint)}";
            case NntpAuthenticationException when error.Message.Contains("refused the login", StringComparison.Ordinal):
                return error.Message.TrimEnd('.') + ": check the user name and password.";
            case NntpAuthenticationException:
                return error.Message;
            case NntpServiceUnavailableException refused:
                return $"{where} refused service ({refused.Code} {refused.StatusText.Trim()}): the account may have too many connections open elsewhere, or the server is down; lower Max connections or check the provider's status page.";
        }

        if (Any(error, static e => e is NntpProtocolException { PeerClosed: true }))
            return $"{where} closed the connection: the server went away or ended the session; if it lasts, check the provider's status page and your account.";

        var inner = error.InnerException;
        if (inner is AuthenticationException tls)
        {
            var detail = tls.InnerException?.Message ?? tls.Message;
            if (tls.Message.Contains("certificate", StringComparison.OrdinalIgnoreCase))
                return $"the server's certificate is not trusted ({detail}): check the host name, or tick \"Allow untrusted certificate\" if you trust this server.";
            return $"the server did not answer TLS on port {provider.Port} ({detail}): untick TLS, or use the provider's TLS port (usually 563).";
        }
        if (FirstOf<SocketException>(error) is { } socket)
        {
            return socket.SocketErrorCode switch
            {
                SocketError.ConnectionRefused => $"nothing accepts connections on {where}: check the host and port (119 without TLS, 563 with TLS).",
                SocketError.HostNotFound or SocketError.NoData or SocketError.TryAgain => $"the host name {provider.Host} was not found: check its spelling.",
                SocketError.NetworkUnreachable or SocketError.HostUnreachable => $"{where} cannot be reached from here: check the address and this machine's network.",
                // Shutdown is EPIPE ("Broken pipe"): the reset reached us while we were writing the command, not reading.
                SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown => $"{where} cut the connection: the server is down or turns this client away; if it lasts, check the provider's status page and your account.",
                _ => socket.Message,
            };
        }
        if (inner is IOException io)
            return io.Message;
        return error.Message;
    }

    private static bool Any(Exception error, Func<Exception, bool> test)
    {
        for (Exception? e = error; e is not null; e = e.InnerException)
        {
            if (test(e))
                return true;
        }

        return false;
    }

    private static T? FirstOf<T>(Exception error) where T : Exception
    {
        for (Exception? e = error; e is not null; e = e.InnerException)
        {
            if (e is T found)
                return found;
        }

        return null;
    }
}
