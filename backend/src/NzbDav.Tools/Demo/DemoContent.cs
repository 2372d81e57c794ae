using System.Reflection;

namespace NzbDav.Tools.Demo;

/// <summary>
/// The demo's sample files: a short real video (made once with ffmpeg and cached in the demo folder;
/// a generated file when ffmpeg is missing) and a real stored RAR5 release embedded in the assembly.
/// </summary>
internal static class DemoContent
{
    public const string VideoJob = "NzbDav.Demo.Video";
    public const string ArchiveJob = "NzbDav.Demo.Stored.RAR5";
    public const string VideoFile = "NzbDav.Demo.Video.mkv";
    public const string GeneratedFile = "NzbDav.Demo.Generated.bin";
    public const string ArchiveFile = "NzbDav.Demo.Stored.RAR5.rar";

    private const string ArchiveResource = "NzbDav.Tools.Demo.Assets.Rar5.none.rar";
    private const int VideoSeconds = 10;
    private const long GeneratedSize = 16L * 1024 * 1024;

    // Small articles so even the small samples span several of them, as a seek across articles would.
    private const int VideoSegmentSize = 256 * 1024;
    private const int ArchiveSegmentSize = 20_000;

    public static async Task<IReadOnlyList<DemoSample>> PrepareAsync(DemoPaths paths, ILogger logger, CancellationToken cancellationToken)
    {
        return [await VideoAsync(paths, logger, cancellationToken), await ArchiveAsync(cancellationToken)];
    }

    private static async Task<DemoSample> VideoAsync(DemoPaths paths, ILogger logger, CancellationToken cancellationToken)
    {
        if (!File.Exists(paths.CachedVideo))
        {
            try
            {
                logger.LogInformation("Making the {Seconds} s demo video with ffmpeg at {Path}", VideoSeconds, paths.CachedVideo);
                await SampleVideo.CreateAsync(paths.CachedVideo, VideoSeconds, cancellationToken);
            }
            catch (SampleVideoException ex)
            {
                logger.LogWarning("No demo video ({Reason}); serving a generated {Size}-byte file instead", ex.Message, GeneratedSize);
                return new DemoSample(VideoJob, GeneratedFile, null, GeneratedSize, VideoSegmentSize);
            }
        }

        var data = await File.ReadAllBytesAsync(paths.CachedVideo, cancellationToken);
        return new DemoSample(VideoJob, VideoFile, data, data.Length, VideoSegmentSize);
    }

    private static async Task<DemoSample> ArchiveAsync(CancellationToken cancellationToken)
    {
        await using var resource = Assembly.GetExecutingAssembly().GetManifestResourceStream(ArchiveResource)
            ?? throw new InvalidOperationException($"The embedded demo archive {ArchiveResource} is missing from the build.");
        using var copy = new MemoryStream();
        await resource.CopyToAsync(copy, cancellationToken);
        var data = copy.ToArray();
        return new DemoSample(ArchiveJob, ArchiveFile, data, data.Length, ArchiveSegmentSize);
    }
}
