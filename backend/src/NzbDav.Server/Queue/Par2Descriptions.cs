using NzbDav.Archives;
using NzbDav.Archives.Release;

namespace NzbDav.Server.Queue;

/// <summary>PAR2 file descriptions from a probed first article, when that is enough.</summary>
internal static class Par2Descriptions
{
    /// <summary>
    /// The descriptions in <paramref name="file"/>'s first article when it is the whole file, or when
    /// they cover every file its main packets list; otherwise null (the whole index must be read).
    /// </summary>
    public static IReadOnlyList<Par2FileDescription>? FromHead(ProbedFile file)
    {
        Par2ReadResult read;
        try
        {
            read = Par2Reader.Read(file.Head.Span);
        }
        catch (ArchiveFormatException)
        {
            return null;
        }

        if (file.Head.Length >= file.Header.FileSize)
            return read.Files;
        if (read.MainPackets.Count == 0)
            return null;
        var described = read.Files.Select(f => (f.RecoverySetId, f.FileId)).ToHashSet();
        foreach (var main in read.MainPackets)
        {
            if (!main.RecoveryFileIds.Concat(main.NonRecoveryFileIds).All(id => described.Contains((main.RecoverySetId, id))))
                return null;
        }

        return read.Files;
    }
}
