using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>An in-memory session of a <see cref="FakeProvider"/>.</summary>
internal sealed class FakeConnection(FakeProvider provider, int id) : INntpConnection
{
    private int _disposed;
    private volatile bool _usable = true;

    public int Id { get; } = id;

    public string ProviderName => provider.Name;

    public int PipelineDepth => 4;

    public bool IsUsable => _usable;

    public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    /// <summary>The owner cut the close short (its token was cancelled) while it waited at the close gate.</summary>
    public bool CloseWasCut { get; private set; }

    public void Break() => _usable = false;

    public async Task<bool> StatAsync(string messageId, CancellationToken cancellationToken)
    {
        await provider.WaitAtGateAsync(cancellationToken);
        ThrowIfBroken();
        return provider.Articles.ContainsKey(messageId);
    }

    public async Task<YencHeader> BodyAsync(string messageId, IYencBodyTarget target, CancellationToken cancellationToken)
    {
        provider.CountBodyRequest(messageId);
        await provider.WaitAtGateAsync(cancellationToken);
        ThrowIfBroken();
        if (!provider.Articles.TryGetValue(messageId, out var data))
        {
            throw new NntpArticleNotFoundException(messageId, provider.Name);
        }

        var header = new YencHeader("file.bin", data.Length, 128, 1, 1, 0, data.Length);
        target.Begin(header);
        var half = data.Length / 2;
        Write(target, data.AsSpan(0, half));
        if (provider.TakeBodyBreak())
        {
            _usable = false;
            throw new NntpProtocolException($"connection to {provider.Name} reset mid-body");
        }

        Write(target, data.AsSpan(half));
        if (provider.Corrupt.ContainsKey(messageId))
        {
            throw new YencCrcMismatchException(1, 2);
        }

        target.Complete(new YencTrailer(data.Length, 1, null, null));
        return header;
    }

    public async ValueTask CloseAsync(CancellationToken cancellationToken)
    {
        if (provider.CloseGate is { } gate)
        {
            try
            {
                await gate.Task.WaitAsync(cancellationToken);
            }
            catch (OperationCanceledException)
            {
                CloseWasCut = true;
            }
        }

        await DisposeAsync();
    }

    public ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            _usable = false;
            provider.Closed();
        }

        return ValueTask.CompletedTask;
    }

    private static void Write(IYencBodyTarget target, ReadOnlySpan<byte> data)
    {
        while (!data.IsEmpty)
        {
            var span = target.GetSpan();
            var count = Math.Min(span.Length, data.Length);
            data[..count].CopyTo(span);
            target.Advance(count);
            data = data[count..];
        }
    }

    private void ThrowIfBroken()
    {
        if (!_usable)
        {
            throw new NntpProtocolException($"connection {Id} to {provider.Name} is broken");
        }
    }
}
