using Microsoft.Extensions.Logging.Abstractions;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// The NNTP response reader: greeting, status lines, and pipelined BODY answers decoded from the
/// pipe (dot-unstuffing, terminator, yEnc) into a caller's target. Input: a plan byte (pipeline
/// depth and which commands: bit set = BODY, clear = STAT), a 4-byte split seed, then everything the
/// server sends, handed to the connection a few bytes per read. Clean rejection: an
/// <see cref="NntpException"/> or <see cref="YencException"/> to the caller, as long as no exception
/// of another kind (a bug the connection wrapped as "unexpected failure") is inside it.
/// </summary>
public sealed class NntpTarget : FuzzTarget
{
    private const int Commands = 4;

    public override string Name => "nntp";

    public override bool Run(byte[] input)
    {
        if (input.Length < 5)
        {
            return false;
        }
        var plan = input[0];
        var provider = new UsenetProviderOptions
        {
            Name = "fuzz",
            Host = "fuzz.invalid",
            Port = 119,
            UseTls = false,
            PipelineDepth = 1 + (plan >> 6),
            OperationTimeout = TimeSpan.FromSeconds(30),
            CloseTimeout = TimeSpan.FromMilliseconds(200),
        };
        var transport = new TricklingStream(input.AsMemory(5), SplitPlan.SeedOf(input.AsSpan(1)), dropWrites: true);
        var succeeded = 0;
        Sync.Run(async () =>
        {
            NntpConnection connection;
            try
            {
                connection = await NntpConnection.OpenAsync(provider, transport, TimeProvider.System, NullLogger.Instance, CancellationToken.None);
            }
            catch (Exception e) when (IsClean(e))
            {
                return;
            }
            await using (connection)
            {
                var requests = new Task[Commands];
                for (var i = 0; i < Commands; i++)
                {
                    requests[i] = (plan & (1 << i)) != 0
                        ? connection.BodyAsync($"part{i}@fuzz", new BoundedTarget(), CancellationToken.None)
                        : connection.StatAsync($"part{i}@fuzz", CancellationToken.None);
                }
                foreach (var request in requests)
                {
                    try
                    {
                        await request;
                        succeeded++;
                    }
                    catch (Exception e) when (IsClean(e))
                    {
                    }
                }
            }
        });
        return succeeded > 0;
    }

    private static bool IsClean(Exception e)
    {
        if (e is not (NntpException or YencException))
        {
            return false;
        }
        // The connection wraps what broke it; the wrapped error must be a protocol, yEnc or transport one.
        for (var inner = e.InnerException; inner is not null; inner = inner.InnerException)
        {
            if (inner is not (NntpException or YencException or IOException or ObjectDisposedException or OperationCanceledException))
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>Takes decoded bytes into a fixed buffer that wraps, so a huge announced part costs nothing here.</summary>
    private sealed class BoundedTarget : IYencBodyTarget
    {
        private readonly byte[] _buffer = new byte[4096];
        private YencHeader? _header;
        private long _written;

        public void Begin(YencHeader header)
        {
            if (_header is not null)
            {
                throw new FuzzFindingException("Begin was called twice for one article.");
            }
            _header = header;
        }

        public Span<byte> GetSpan() => _header is null ? throw new FuzzFindingException("GetSpan before Begin.") : _buffer;

        public void Advance(int count)
        {
            _written += count;
            if (_header is null || count < 0 || count > _buffer.Length || _written > _header.PartSize)
            {
                throw new FuzzFindingException($"Advance({count}) after {_written - count} bytes of a {_header?.PartSize}-byte part.");
            }
        }

        public void Complete(YencTrailer trailer)
        {
            if (_header is null || _written != _header.PartSize)
            {
                throw new FuzzFindingException($"Complete after {_written} bytes of a {_header?.PartSize}-byte part.");
            }
        }
    }
}
