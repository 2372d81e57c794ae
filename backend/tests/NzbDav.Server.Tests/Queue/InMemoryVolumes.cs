using System.Collections.Concurrent;
using NzbDav.Archives.Release;
using NzbDav.Server.Queue;
using NzbDav.Usenet.Nzb;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Server.Tests.Queue;

/// <summary>
/// Archive volumes split into articles in memory, probed as ingestion would (whole first article
/// kept), serving later articles only when <see cref="Open"/> lets them through and recording which
/// were asked for.
/// </summary>
internal sealed class InMemoryVolumes : IIngestionArticles
{
    private readonly Dictionary<string, (int Volume, int Segment)> _ids = [];
    private readonly byte[][] _volumes;
    private readonly int _segmentSize;
    private readonly TaskCompletionSource _open = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public InMemoryVolumes(byte[][] volumes, int segmentSize)
    {
        _volumes = volumes;
        _segmentSize = segmentSize;
        var members = new List<VolumeSetMember<ProbedFile>>();
        for (var v = 0; v < volumes.Length; v++)
        {
            var count = (volumes[v].Length + segmentSize - 1) / segmentSize;
            var segments = Enumerable.Range(1, count).Select(n => new NzbSegment(n, segmentSize, $"v{v}s{n}@test")).ToArray();
            foreach (var segment in segments)
                _ids[segment.MessageId] = (v, segment.Number - 1);
            var name = $"set.part{v + 1:00}.rar";
            var file = new NzbFile($"\"{name}\" yEnc (1/{count})", "poster", null, ["alt.binaries.test"], segments);
            var head = Part(v, 0);
            var probed = new ProbedFile(v, file, Header(v, 0), head, ReleaseFileClassifier.Classify(head, name));
            members.Add(new VolumeSetMember<ProbedFile>(probed, name, v + 1));
        }

        Set = new VolumeSet<ProbedFile>("set", VolumeScheme.RarPart, members, [], []);
    }

    public VolumeSet<ProbedFile> Set { get; }

    /// <summary>Message-ids asked for, in order.</summary>
    public ConcurrentQueue<string> Requested { get; } = new();

    /// <summary>Lets every request, past and future, complete.</summary>
    public void Open() => _open.TrySetResult();

    public async Task<(YencHeader Header, ReadOnlyMemory<byte> Bytes)> FetchArticleAsync(NzbFile file, string messageId, int capacity, CancellationToken cancellationToken)
    {
        Requested.Enqueue(messageId);
        await _open.Task.WaitAsync(cancellationToken);
        var (volume, segment) = _ids[messageId];
        return (Header(volume, segment), Part(volume, segment));
    }

    public static string MessageId(int volume, int segment) => $"v{volume}s{segment + 1}@test";

    public int ArticleCount(int volume) => (_volumes[volume].Length + _segmentSize - 1) / _segmentSize;

    private byte[] Part(int volume, int segment)
    {
        var begin = segment * _segmentSize;
        return _volumes[volume][begin..Math.Min(begin + _segmentSize, _volumes[volume].Length)];
    }

    private YencHeader Header(int volume, int segment)
    {
        var size = _volumes[volume].Length;
        var begin = (long)segment * _segmentSize;
        return new YencHeader($"set.part{volume + 1:00}.rar", size, 128, segment + 1, ArticleCount(volume), begin, Math.Min(_segmentSize, size - begin));
    }
}
