using NzbDav.Usenet.Nzb;

namespace NzbDav.Fuzz.Targets;

/// <summary>The NZB parser, synchronous and asynchronous paths. Clean rejection: <see cref="NzbFormatException"/>.</summary>
public sealed class NzbTarget : FuzzTarget
{
    private readonly NzbParser _parser = new();

    public override string Name => "nzb";

    public override bool Run(byte[] input)
    {
        NzbDocument? sync = null;
        try
        {
            sync = _parser.Parse(new MemoryStream(input, writable: false));
        }
        catch (NzbFormatException)
        {
        }

        // The async path reads the same bytes through the async XmlReader; it must agree.
        NzbDocument? async = null;
        Sync.Run(async () =>
        {
            try
            {
                async = await _parser.ParseAsync(new MemoryStream(input, writable: false), CancellationToken.None);
            }
            catch (NzbFormatException)
            {
            }
        });
        if ((sync is null) != (async is null) || (sync is not null && sync.Files.Count != async!.Files.Count))
        {
            throw new FuzzFindingException($"Parse and ParseAsync disagree: {(sync is null ? "rejected" : $"{sync.Files.Count} files")} vs {(async is null ? "rejected" : $"{async.Files.Count} files")}.");
        }
        return sync is not null;
    }
}
