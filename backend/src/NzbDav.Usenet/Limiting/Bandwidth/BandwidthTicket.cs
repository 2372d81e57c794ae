using NzbDav.Usenet.Nntp;

namespace NzbDav.Usenet.Limiting;

/// <summary>
/// One lease's way through the caps: its provider's gate (when that provider has a cap), then the
/// global one, each asked before a read and settled after it. One per lease, used by its session's
/// receive loop only (one read at a time), so its reservations need no lock.
/// </summary>
internal sealed class BandwidthTicket(BandwidthGate? provider, BandwidthGate global, OperationKind kind, object? flow) : IReceiveThrottle
{
    private readonly object _flow = flow ?? new object();
    private bool _providerReserved;
    private bool _globalReserved;

    public ValueTask WaitAsync(CancellationToken cancellationToken)
    {
        if ((provider is null || provider.Rate == 0) && global.Rate == 0)
        {
            return default;
        }
        if (provider is not null)
        {
            var first = provider.WaitAsync(kind, _flow, cancellationToken);
            if (!first.IsCompletedSuccessfully)
            {
                return WaitBothAsync(first, cancellationToken);
            }
#pragma warning disable RS0030 // Completed successfully (checked above): Result reads it, it never blocks.
            _providerReserved = first.Result;
#pragma warning restore RS0030
        }
        var second = global.WaitAsync(kind, _flow, cancellationToken);
        if (!second.IsCompletedSuccessfully)
        {
            return WaitGlobalAsync(second);
        }
#pragma warning disable RS0030 // Completed successfully (checked above): Result reads it, it never blocks.
        _globalReserved = second.Result;
#pragma warning restore RS0030
        return default;
    }

    public void Received(int bytes)
    {
        if (_providerReserved)
        {
            _providerReserved = false;
            provider!.Settle(bytes);
        }
        if (_globalReserved)
        {
            _globalReserved = false;
            global.Settle(bytes);
        }
    }

    private async ValueTask WaitBothAsync(ValueTask<bool> first, CancellationToken cancellationToken)
    {
        _providerReserved = await first.ConfigureAwait(false);
        _globalReserved = await global.WaitAsync(kind, _flow, cancellationToken).ConfigureAwait(false);
    }

    private async ValueTask WaitGlobalAsync(ValueTask<bool> second) =>
        _globalReserved = await second.ConfigureAwait(false);
}
