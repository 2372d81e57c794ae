using Microsoft.Extensions.Options;

namespace NzbDav.Streaming;

/// <summary>Settings that never change, for callers that pass a plain options object (tools, tests).</summary>
internal sealed class FixedOptionsMonitor<T>(T value) : IOptionsMonitor<T>
{
    public T CurrentValue => value;

    public T Get(string? name) => value;

    public IDisposable? OnChange(Action<T, string?> listener) => null;
}
