namespace NzbDav.Archives.Release;

/// <summary>Accumulates one PAR2 read; deduplicates the packets PAR2 repeats in every volume.</summary>
internal sealed class Par2ResultBuilder
{
    private readonly List<Par2FileDescription> _files = [];
    private readonly HashSet<(Hash16 Set, Hash16 File)> _fileKeys = [];
    private readonly Dictionary<(Hash16 Set, Hash16 File), string> _unicodeNames = [];
    private readonly List<Par2MainPacket> _mains = [];

    public string? Creator { get; set; }

    public int ValidPackets { get; set; }

    public int SkippedPackets { get; set; }

    public int CorruptPackets { get; set; }

    public long GarbageBytes { get; set; }

    public bool Truncated { get; set; }

    public void AddFile(Par2FileDescription file)
    {
        if (_fileKeys.Add((file.RecoverySetId, file.FileId)))
        {
            _files.Add(file);
        }
    }

    public void AddUnicodeName(Hash16 setId, Hash16 fileId, string name)
    {
        if (name.Length > 0)
        {
            _unicodeNames.TryAdd((setId, fileId), name);
        }
    }

    public void AddMain(Par2MainPacket main)
    {
        if (!_mains.Exists(m => m.RecoverySetId == main.RecoverySetId))
        {
            _mains.Add(main);
        }
    }

    public Par2ReadResult Build()
    {
        var files = new Par2FileDescription[_files.Count];
        for (var i = 0; i < files.Length; i++)
        {
            var file = _files[i];
            files[i] = _unicodeNames.TryGetValue((file.RecoverySetId, file.FileId), out var unicode)
                ? file with { Name = unicode }
                : file;
        }

        return new Par2ReadResult(
            files, _mains.ToArray(), Creator, ValidPackets, SkippedPackets, CorruptPackets, GarbageBytes, Truncated);
    }
}
