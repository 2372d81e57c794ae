using System.Globalization;

namespace NzbDav.Server.Tests.Monitoring;

/// <summary>One scrape of <c>/metrics</c> in the Prometheus text format, parsed into series and their values.</summary>
public sealed class PrometheusScrape
{
    private readonly List<(string Name, Dictionary<string, string> Labels, double Value)> _samples = [];
    private readonly Dictionary<string, string> _types = new(StringComparer.Ordinal);

    private PrometheusScrape(string text)
    {
        Text = text;
        foreach (var raw in text.Split('\n'))
        {
            var line = raw.TrimEnd('\r');
            if (line.StartsWith("# TYPE ", StringComparison.Ordinal))
            {
                var parts = line.Split(' ');
                _types[parts[2]] = parts[3];
                continue;
            }

            if (line.Length == 0 || line[0] == '#')
                continue;
            var brace = line.IndexOf('{', StringComparison.Ordinal);
            var space = line.LastIndexOf(' ');
            var name = brace >= 0 ? line[..brace] : line[..space];
            var labels = new Dictionary<string, string>(StringComparer.Ordinal);
            if (brace >= 0)
            {
                var close = line.LastIndexOf('}');
                foreach (var pair in line[(brace + 1)..close].Split(',', StringSplitOptions.RemoveEmptyEntries))
                {
                    var equals = pair.IndexOf('=', StringComparison.Ordinal);
                    labels[pair[..equals]] = pair[(equals + 1)..].Trim('"');
                }
            }

            _samples.Add((name, labels, double.Parse(line[(space + 1)..], NumberStyles.Float, CultureInfo.InvariantCulture)));
        }
    }

    public string Text { get; }

    public static async Task<PrometheusScrape> GetAsync(HttpClient http, string path, CancellationToken cancellationToken)
    {
        using var response = await http.GetAsync(path, cancellationToken);
        Assert.Equal(200, (int)response.StatusCode);
        Assert.StartsWith("text/plain", response.Content.Headers.ContentType?.MediaType);
        return new PrometheusScrape(await response.Content.ReadAsStringAsync(cancellationToken));
    }

    /// <summary>The <c># TYPE</c> of a metric family, or null when it is not exported.</summary>
    public string? TypeOf(string family) => _types.GetValueOrDefault(family);

    /// <summary>The value of the one series of <paramref name="name"/> with exactly these labels; fails when there is none.</summary>
    public double Value(string name, params (string Name, string Value)[] labels) =>
        Find(name, labels) ?? throw new Xunit.Sdk.XunitException($"No series {name}{{{string.Join(',', labels.Select(l => l.Name + "=" + l.Value))}}} in the scrape:\n{Text}");

    public double? Find(string name, params (string Name, string Value)[] labels)
    {
        foreach (var sample in _samples)
        {
            if (sample.Name == name && sample.Labels.Count == labels.Length && labels.All(l => sample.Labels.TryGetValue(l.Name, out var v) && v == l.Value))
                return sample.Value;
        }

        return null;
    }

    /// <summary>Every label set exported for <paramref name="name"/>.</summary>
    public IReadOnlyList<IReadOnlyDictionary<string, string>> Series(string name) =>
        [.. _samples.Where(s => s.Name == name).Select(s => (IReadOnlyDictionary<string, string>)s.Labels)];
}
