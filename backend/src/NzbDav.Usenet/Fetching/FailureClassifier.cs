using System.Net.Sockets;
using System.Security.Authentication;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Fetching;

/// <summary>What an exception from a provider operation says about the article and the provider.</summary>
internal enum FailureKind
{
    /// <summary>430: this provider does not have the article; it is healthy.</summary>
    Missing,

    /// <summary>The provider answered but its copy failed yEnc or CRC checks; another may hold a good one.</summary>
    Corrupt,

    /// <summary>The provider or the link to it failed (I/O, timeout, protocol, TLS, authentication).</summary>
    ProviderFault,

    /// <summary>The caller cancelled.</summary>
    Cancelled,

    /// <summary>Not the provider's doing (a consumer's bug, a disposed object): no retry can help.</summary>
    NotProvider,
}

/// <summary>The one place that decides what an exception from NNTP means, for leasing and for fetching alike.</summary>
internal static class FailureClassifier
{
    public static FailureKind Classify(Exception error, CancellationToken callerToken) => error switch
    {
        NntpArticleNotFoundException => FailureKind.Missing,
        YencException => FailureKind.Corrupt,
        OperationCanceledException when callerToken.IsCancellationRequested => FailureKind.Cancelled,
        ObjectDisposedException => FailureKind.NotProvider,
        // A cancellation nobody asked for is a deadline inside the connection.
        OperationCanceledException or NntpException or IOException or SocketException or TimeoutException or AuthenticationException
            => FailureKind.ProviderFault,
        _ => FailureKind.NotProvider,
    };

    public static bool IsProviderFault(Exception error, CancellationToken callerToken) =>
        Classify(error, callerToken) == FailureKind.ProviderFault;
}
