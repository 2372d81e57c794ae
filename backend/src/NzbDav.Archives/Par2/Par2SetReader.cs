using System.Buffers.Binary;
using NzbDav.Archives.Release;

namespace NzbDav.Archives.Par2;

/// <summary>
/// Collects a recovery set from the packets of its PAR2 files: the Main packet, the file
/// descriptions, the slice checksums and where the recovery slices are. A set is refused with a
/// reason when what it says does not add up: a file without its description or checksums, a
/// checksum count that does not fit the slice size, a recovery slice of the wrong size.
/// </summary>
public sealed class Par2SetReader
{
    private readonly Dictionary<Hash16, SetParts> _sets = [];

    public int CorruptPackets { get; private set; }

    /// <summary>Packets whose body contradicted itself (a wrong slice count, a recovery slice of the wrong size).</summary>
    public int RefusedPackets { get; private set; }

    /// <summary>Why packets were refused, the first few.</summary>
    public IReadOnlyList<string> Refusals => _refusals;

    private readonly List<string> _refusals = [];

    /// <summary>Reads every packet of <paramref name="stream"/> (one PAR2 file, named <paramref name="volume"/>).</summary>
    public async Task ReadAsync(string volume, Stream stream, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(volume);
        ArgumentNullException.ThrowIfNull(stream);
        var reader = new Par2PacketReader();
        await foreach (var packet in reader.ReadAsync(stream, cancellationToken).ConfigureAwait(false))
        {
            Add(volume, packet);
        }

        CorruptPackets += reader.CorruptPackets;
    }

    internal void Add(string volume, Par2Packet packet)
    {
        var parts = Parts(packet.SetId);
        var body = packet.Body.Span;
        switch (packet.Kind)
        {
            case Par2PacketKind.Main:
                if (body.Length < 12 || (body.Length - 12) % 16 != 0)
                {
                    Refuse("a Main packet of " + body.Length + " bytes");
                    return;
                }

                var sliceSize = BinaryPrimitives.ReadUInt64LittleEndian(body);
                var count = BinaryPrimitives.ReadUInt32LittleEndian(body[8..]);
                if (sliceSize == 0 || sliceSize % 4 != 0 || sliceSize > Par2PacketReader.MaxPacketLength || count > (body.Length - 12) / 16)
                {
                    Refuse("a Main packet with slice size " + sliceSize + " and " + count + " files");
                    return;
                }

                var ids = new Hash16[count];
                for (var i = 0; i < ids.Length; i++)
                {
                    ids[i] = Hash16.FromBytes(body[(12 + (16 * i))..]);
                }

                if (parts.SliceSize is { } known && (known != (long)sliceSize || !parts.FileIds!.SequenceEqual(ids)))
                {
                    Refuse("two Main packets that disagree in one recovery set");
                    return;
                }

                parts.SliceSize = (long)sliceSize;
                parts.FileIds = ids;
                break;
            case Par2PacketKind.FileDescription:
                if (body.Length < 56)
                {
                    Refuse("a file description of " + body.Length + " bytes");
                    return;
                }

                var length = BinaryPrimitives.ReadUInt64LittleEndian(body[48..]);
                if (length > long.MaxValue)
                {
                    Refuse("a file description of length " + length);
                    return;
                }

                var description = new Par2FileDescription(
                    packet.SetId,
                    Hash16.FromBytes(body),
                    Hash16.FromBytes(body[16..]),
                    Hash16.FromBytes(body[32..]),
                    (long)length,
                    Par2PacketBodies.DecodeName(body[56..]));
                parts.Descriptions.TryAdd(description.FileId, description);
                break;
            case Par2PacketKind.SliceChecksums:
                if (body.Length < 16 || (body.Length - 16) % 20 != 0)
                {
                    Refuse("a slice checksum packet of " + body.Length + " bytes");
                    return;
                }

                var checksums = new Par2SliceChecksum[(body.Length - 16) / 20];
                for (var i = 0; i < checksums.Length; i++)
                {
                    var entry = body[(16 + (20 * i))..];
                    checksums[i] = new Par2SliceChecksum(Hash16.FromBytes(entry), BinaryPrimitives.ReadUInt32LittleEndian(entry[16..]));
                }

                parts.Checksums.TryAdd(Hash16.FromBytes(body), checksums);
                break;
            case Par2PacketKind.RecoverySlice:
                if (body.Length < 4)
                {
                    Refuse("a recovery slice packet of " + body.Length + " bytes");
                    return;
                }

                var exponent = BinaryPrimitives.ReadUInt32LittleEndian(body);
                if (exponent >= Galois16.Order)
                {
                    Refuse("a recovery slice with exponent " + exponent + ", outside PAR 2.0's 0-65534");
                    return;
                }

                if (parts.Recovery.TrueForAll(r => r.Info.Exponent != exponent))
                {
                    parts.Recovery.Add((new Par2RecoverySliceInfo(exponent, volume, packet.Offset + 64 + 4), body.Length - 4));
                }

                break;
            case Par2PacketKind.UnicodeFileName:
                if (body.Length > 16)
                {
                    var name = System.Text.Encoding.Unicode.GetString(body[16..(16 + ((body.Length - 16) & ~1))]).TrimEnd('\0');
                    if (name.Length > 0)
                    {
                        parts.UnicodeNames.TryAdd(Hash16.FromBytes(body), name);
                    }
                }

                break;
            default:
                break;
        }
    }

    /// <summary>
    /// The recovery set read (the one with a Main packet and the most recovery slices when files
    /// hold several), or null with <paramref name="failure"/> saying what is missing or inconsistent.
    /// </summary>
    public Par2RecoverySet? Build(out string? failure)
    {
        var candidates = _sets.Where(s => s.Value.SliceSize is not null).ToList();
        if (candidates.Count == 0)
        {
            failure = _sets.Count == 0 ? "no PAR2 packets were found" : "no Main packet was found: the recovery set's files and slice size are unknown";
            return null;
        }

        var (id, parts) = candidates.OrderByDescending(s => s.Value.Recovery.Count).First();
        var sliceSize = parts.SliceSize!.Value;
        var files = new List<Par2SetFile>(parts.FileIds!.Length);
        var first = 0;
        foreach (var fileId in parts.FileIds)
        {
            if (!parts.Descriptions.TryGetValue(fileId, out var description))
            {
                failure = "the description of file " + fileId + " is missing from the recovery set";
                return null;
            }

            if (!parts.Checksums.TryGetValue(fileId, out var checksums))
            {
                failure = "the slice checksums of " + description.Name + " are missing from the recovery set";
                return null;
            }

            var expected = (description.Length + sliceSize - 1) / sliceSize;
            if (checksums.Length != expected)
            {
                failure = description.Name + " has " + checksums.Length + " slice checksums, and " + expected + " slices of " + sliceSize + " bytes";
                return null;
            }

            if (parts.UnicodeNames.TryGetValue(fileId, out var unicode))
            {
                description = description with { Name = unicode };
            }

            files.Add(new Par2SetFile(description, first, checksums));
            first = checked(first + checksums.Length);
        }

        if (first > 32768)
        {
            failure = "the recovery set has " + first + " slices, more than PAR 2.0's 32,768";
            return null;
        }

        var wrongSize = parts.Recovery.Where(r => r.DataLength != sliceSize).ToList();
        foreach (var wrong in wrongSize.Take(3))
        {
            Refuse("recovery slice " + wrong.Info.Exponent + " in " + wrong.Info.Volume + " holds " + wrong.DataLength + " bytes, not the slice size " + sliceSize);
        }

        RefusedPackets += Math.Max(0, wrongSize.Count - 3);
        var recovery = parts.Recovery.Where(r => r.DataLength == sliceSize).Select(r => r.Info).ToList();
        failure = null;
        return new Par2RecoverySet(id, sliceSize, files, recovery);
    }

    private SetParts Parts(Hash16 id)
    {
        if (!_sets.TryGetValue(id, out var parts))
        {
            parts = new SetParts();
            _sets[id] = parts;
        }

        return parts;
    }

    private void Refuse(string what)
    {
        RefusedPackets++;
        if (_refusals.Count < 16)
        {
            _refusals.Add(what);
        }
    }

    private sealed class SetParts
    {
        public long? SliceSize { get; set; }

        public Hash16[]? FileIds { get; set; }

        public Dictionary<Hash16, Par2FileDescription> Descriptions { get; } = [];

        public Dictionary<Hash16, Par2SliceChecksum[]> Checksums { get; } = [];

        public Dictionary<Hash16, string> UnicodeNames { get; } = [];

        public List<(Par2RecoverySliceInfo Info, int DataLength)> Recovery { get; } = [];
    }
}
