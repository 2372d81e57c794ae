using System.Text.RegularExpressions;

namespace NzbDav.Server.Tests.Deployment;

/// <summary>One instruction of a Dockerfile: the keyword (upper case) and the rest of its line, continuations joined.</summary>
internal sealed record DockerInstruction(string Keyword, string Arguments);

/// <summary>A build stage: its <c>FROM</c> arguments, its name (after <c>AS</c>, or null) and its instructions.</summary>
internal sealed record DockerStage(string From, string? Name, IReadOnlyList<DockerInstruction> Instructions)
{
    public IEnumerable<string> Arguments(string keyword) =>
        Instructions.Where(i => i.Keyword == keyword).Select(i => i.Arguments);
}

/// <summary>The repository's Dockerfile read as stages, enough to check what the image is built from and with.</summary>
internal sealed partial class Dockerfile
{
    private Dockerfile(IReadOnlyList<DockerInstruction> global, IReadOnlyList<DockerStage> stages)
    {
        Global = global;
        Stages = stages;
    }

    /// <summary>The instructions before the first FROM (global ARGs).</summary>
    public IReadOnlyList<DockerInstruction> Global { get; }

    public IReadOnlyList<DockerStage> Stages { get; }

    /// <summary>The stage named <paramref name="name"/>.</summary>
    public DockerStage Stage(string name) =>
        Stages.SingleOrDefault(s => s.Name == name) ?? throw new InvalidOperationException($"The Dockerfile has no stage named '{name}'.");

    /// <summary>The image's own stage: the last.</summary>
    public DockerStage Final => Stages[^1];

    public static Dockerfile Read() => Parse(File.ReadAllLines(Repository.PathOf("Dockerfile")));

    public static Dockerfile Parse(IEnumerable<string> lines)
    {
        var global = new List<DockerInstruction>();
        var stages = new List<DockerStage>();
        List<DockerInstruction>? current = null;
        string? from = null, name = null;
        var pending = "";
        foreach (var raw in lines)
        {
            var line = raw.Trim();
            if (pending.Length == 0 && (line.Length == 0 || line.StartsWith('#')))
                continue;
            if (line.EndsWith('\\'))
            {
                pending += line[..^1] + " ";
                continue;
            }

            var text = (pending + line).Trim();
            pending = "";
            var space = text.IndexOf(' ', StringComparison.Ordinal);
            var instruction = new DockerInstruction(
                (space < 0 ? text : text[..space]).ToUpperInvariant(),
                space < 0 ? "" : Whitespace().Replace(text[(space + 1)..], " ").Trim());
            if (instruction.Keyword == "FROM")
            {
                if (current is not null)
                    stages.Add(new DockerStage(from!, name, current));
                var alias = StageName().Match(instruction.Arguments);
                from = instruction.Arguments;
                name = alias.Success ? alias.Groups[1].Value : null;
                current = [];
            }
            else
            {
                (current ?? global).Add(instruction);
            }
        }
        if (current is not null)
            stages.Add(new DockerStage(from!, name, current));
        return new Dockerfile(global, stages);
    }

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();

    [GeneratedRegex(@"\s[Aa][Ss]\s+(\S+)$")]
    private static partial Regex StageName();
}
