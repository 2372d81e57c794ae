namespace NzbDav.Server.Tests.Deployment;

/// <summary>
/// Lays out in a folder what the Dockerfile's build stage works on: the files its <c>COPY</c> lines
/// take from the build context (without what .dockerignore leaves out), and the web UI the Node
/// stage would build, taken from the repository's frontend/dist when the suite's build made it.
/// </summary>
internal static class BuildContext
{
    /// <summary>Copies the build stage's sources into <paramref name="target"/> (its WORKDIR); returns whether the UI was included.</summary>
    public static bool CopyBuildStage(DockerStage stage, string target)
    {
        var ignored = DockerIgnore.Read();
        var withUi = false;
        foreach (var copy in stage.Arguments("COPY"))
        {
            var words = copy.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            var destination = Path.Combine(target, words[^1]);
            if (words[0].StartsWith("--from=ui", StringComparison.Ordinal))
            {
                // The Node stage's output. Without it the server is published without its UI, as
                // a machine without Node.js would.
                var dist = Repository.PathOf("frontend", "dist");
                if (File.Exists(Path.Combine(dist, "index.html")))
                {
                    CopyTree(dist, destination, _ => false);
                    withUi = true;
                }
                continue;
            }

            Assert.False(words[0].StartsWith("--", StringComparison.Ordinal), $"COPY option not understood by this test: {copy}");
            foreach (var source in words[..^1])
            {
                var from = Repository.PathOf(source.TrimEnd('/'));
                if (Directory.Exists(from))
                    CopyTree(from, destination, relative => ignored.Excludes(Path.Combine(source.TrimEnd('/'), relative)));
                else
                    CopyFile(from, Path.Combine(destination, Path.GetFileName(from)));
            }
        }
        return withUi;
    }

    private static void CopyTree(string from, string to, Func<string, bool> excluded)
    {
        Directory.CreateDirectory(to);
        foreach (var entry in new DirectoryInfo(from).EnumerateFileSystemInfos())
        {
            var relative = entry.Name;
            if (excluded(relative))
                continue;
            if (entry is DirectoryInfo directory)
                CopyTree(directory.FullName, Path.Combine(to, entry.Name), inner => excluded(Path.Combine(relative, inner)));
            else
                CopyFile(entry.FullName, Path.Combine(to, entry.Name));
        }
    }

    private static void CopyFile(string from, string to)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(to)!);
        File.Copy(from, to, overwrite: true);
        if (!OperatingSystem.IsWindows())
            File.SetUnixFileMode(to, File.GetUnixFileMode(from));
    }

    /// <summary>The patterns of the repository's .dockerignore this repository uses: <c>**/name/</c> and root paths <c>path/</c>.</summary>
    private sealed class DockerIgnore
    {
        private readonly List<string> _anywhere = [];
        private readonly List<string> _fromRoot = [];

        public static DockerIgnore Read()
        {
            var ignore = new DockerIgnore();
            foreach (var raw in File.ReadAllLines(Repository.PathOf(".dockerignore")))
            {
                var line = raw.Trim();
                if (line.Length == 0 || line.StartsWith('#'))
                    continue;
                Assert.False(line.StartsWith('!') || (line.Contains('*', StringComparison.Ordinal) && !line.StartsWith("**/", StringComparison.Ordinal)),
                    $".dockerignore pattern not understood by this test: {line}");
                if (line.StartsWith("**/", StringComparison.Ordinal))
                    ignore._anywhere.Add(line[3..].TrimEnd('/'));
                else
                    ignore._fromRoot.Add(line.TrimEnd('/'));
            }
            return ignore;
        }

        /// <summary>Whether the path (relative to the build context) is left out.</summary>
        public bool Excludes(string relative)
        {
            var parts = relative.Split('/', StringSplitOptions.RemoveEmptyEntries);
            return parts.Any(part => _anywhere.Contains(part, StringComparer.Ordinal))
                || _fromRoot.Any(root => relative == root || relative.StartsWith(root + "/", StringComparison.Ordinal));
        }
    }
}
