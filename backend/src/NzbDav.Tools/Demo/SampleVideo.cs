using System.ComponentModel;
using System.Diagnostics;
using System.Globalization;

namespace NzbDav.Tools.Demo;

/// <summary>
/// Makes a short real video (test pattern plus a sine tone, H.264/AAC in Matroska) with the
/// <c>ffmpeg</c> executable, so demo mode and the real-client tests stream something a player accepts.
/// </summary>
internal static class SampleVideo
{
    /// <summary>Writes the video to <paramref name="path"/>; throws <see cref="SampleVideoException"/> when ffmpeg is missing or fails.</summary>
    public static async Task CreateAsync(string path, int seconds, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(seconds, 1);
        var partial = path + ".partial";
        var duration = seconds.ToString(CultureInfo.InvariantCulture);
        var start = new ProcessStartInfo("ffmpeg",
        [
            "-nostdin", "-y", "-v", "error",
            "-f", "lavfi", "-i", $"testsrc=duration={duration}:size=640x360:rate=25",
            "-f", "lavfi", "-i", $"sine=duration={duration}",
            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
            // The partial name has no known extension: name the container.
            "-f", "matroska", partial,
        ])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };

        Process process;
        try
        {
            process = Process.Start(start) ?? throw new SampleVideoException("ffmpeg could not be started.");
        }
        catch (Win32Exception ex)
        {
            throw new SampleVideoException("ffmpeg is not installed (apt-get install ffmpeg): " + ex.Message, ex);
        }

        using (process)
        {
            var errors = process.StandardError.ReadToEndAsync(cancellationToken);
            var output = process.StandardOutput.ReadToEndAsync(cancellationToken);
            try
            {
                await process.WaitForExitAsync(cancellationToken);
            }
            catch (OperationCanceledException)
            {
                process.Kill(entireProcessTree: true);
                File.Delete(partial);
                throw;
            }

            await output;
            var message = await errors;
            if (process.ExitCode != 0 || !File.Exists(partial))
            {
                File.Delete(partial);
                throw new SampleVideoException($"ffmpeg failed with exit code {process.ExitCode}: {message.Trim()}");
            }
        }

        // Renamed only when complete, so an interrupted run never leaves a truncated cached video.
        File.Move(partial, path, overwrite: true);
    }
}
