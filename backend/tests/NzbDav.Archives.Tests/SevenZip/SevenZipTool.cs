using System.Diagnostics;

namespace NzbDav.Archives.Tests.SevenZip;

/// <summary>
/// Debian's 7-Zip (<c>7zz</c>, package <c>7zip</c>), run to make real 7z archives in a temp folder.
/// Missing, it fails the test naming the package: tools/test.sh installs it, so a skip would only
/// hide a broken machine.
/// </summary>
internal static class SevenZipTool
{
    public const string Program = "7zz";

    /// <summary>
    /// A tree of files to archive, in archive-relative paths: sizes around the AES block and the
    /// split volume size, one larger than a volume, a unicode name and a subdirectory.
    /// </summary>
    public static IReadOnlyDictionary<string, byte[]> SampleFiles(int seed = 1)
    {
        var random = new Random(seed);
        byte[] Bytes(int length)
        {
            var bytes = new byte[length];
            random.NextBytes(bytes);
            return bytes;
        }

        return new Dictionary<string, byte[]>(StringComparer.Ordinal)
        {
            ["Show.S01E01.mkv"] = Bytes(150_001),
            ["Show.S01E01.nfo"] = Bytes(1_000),
            ["Sample/Show.S01E01.sample.mkv"] = Bytes(40_000),
            ["Субтитры ünïcødé 字幕.srt"] = Bytes(33),
            ["empty.txt"] = [],
        };
    }

    /// <summary>Writes <paramref name="files"/> under <paramref name="directory"/>/src and archives them into <paramref name="archiveName"/>.</summary>
    /// <returns>The archive's volumes in order (one, or <c>.001</c>, <c>.002</c>… when split).</returns>
    public static async Task<string[]> CreateAsync(string directory, string archiveName, IReadOnlyDictionary<string, byte[]> files, string[] switches, CancellationToken cancellationToken)
    {
        var source = Path.Combine(directory, "src");
        foreach (var (name, bytes) in files)
        {
            var path = Path.Combine(source, name);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            await File.WriteAllBytesAsync(path, bytes, cancellationToken);
        }

        var archive = Path.Combine(directory, archiveName);
        await RunAsync(source, ["a", "-bd", "-y", .. switches, archive, "."], cancellationToken);
        var volumes = Directory.GetFiles(directory, archiveName + ".*").Where(IsNumberedVolume).Order(StringComparer.Ordinal).ToArray();
        return File.Exists(archive) ? [archive] : volumes.Length > 0 ? volumes : throw new InvalidOperationException($"{Program} made no {archiveName} in {directory}");
    }

    public static async Task<string> RunAsync(string workingDirectory, IEnumerable<string> arguments, CancellationToken cancellationToken)
    {
        var info = new ProcessStartInfo(Program)
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        Process process;
        try
        {
            process = Process.Start(info)!;
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            Assert.Fail($"{Program} could not start ({e.Message}). Install Debian's 7-Zip: 'apt-get install 7zip' (tools/test.sh does it).");
            throw;
        }

        using (process)
        {
            var stdout = process.StandardOutput.ReadToEndAsync(cancellationToken);
            var stderr = process.StandardError.ReadToEndAsync(cancellationToken);
            await process.WaitForExitAsync(cancellationToken);
            var output = await stdout + await stderr;
            Assert.True(process.ExitCode == 0, $"{Program} {string.Join(' ', info.ArgumentList)} exited {process.ExitCode}: {output}");
            return output;
        }
    }

    private static bool IsNumberedVolume(string path) => Path.GetExtension(path) is [_, _, _, _] extension && extension[1..].All(char.IsAsciiDigit);
}
