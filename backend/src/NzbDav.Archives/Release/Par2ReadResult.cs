namespace NzbDav.Archives.Release;

/// <summary>Everything useful found in one PAR2 file, plus how much of it could not be used.</summary>
public sealed class Par2ReadResult
{
    internal Par2ReadResult(
        IReadOnlyList<Par2FileDescription> files,
        IReadOnlyList<Par2MainPacket> mainPackets,
        string? creator,
        int validPackets,
        int skippedPackets,
        int corruptPackets,
        long garbageBytes,
        bool truncated)
    {
        Files = files;
        MainPackets = mainPackets;
        Creator = creator;
        ValidPackets = validPackets;
        SkippedPackets = skippedPackets;
        CorruptPackets = corruptPackets;
        GarbageBytes = garbageBytes;
        Truncated = truncated;
    }

    /// <summary>File descriptions, one per (recovery set, file id), in the order first seen.</summary>
    public IReadOnlyList<Par2FileDescription> Files { get; }

    /// <summary>Main packets, one per recovery set.</summary>
    public IReadOnlyList<Par2MainPacket> MainPackets { get; }

    /// <summary>Text of the first Creator packet, if any.</summary>
    public string? Creator { get; }

    /// <summary>Packets whose MD5 verified and whose body was read (duplicates included).</summary>
    public int ValidPackets { get; }

    /// <summary>Packets passed over unread: recovery slices, slice checksums, unknown types.</summary>
    public int SkippedPackets { get; }

    /// <summary>Packets with a bad header, a wrong MD5 or an inconsistent body; reading resynchronised after them.</summary>
    public int CorruptPackets { get; }

    /// <summary>Bytes found outside any packet.</summary>
    public long GarbageBytes { get; }

    /// <summary>The data ended inside a packet (normal when only the first article of a file was fetched).</summary>
    public bool Truncated { get; }
}
