namespace NzbDav.Server.Health.Arr;

/// <summary>Which API an instance speaks: both are v3 APIs of the same family, with episodes or movies.</summary>
public enum ArrKind
{
    Sonarr,
    Radarr,
}

/// <summary>The Sonarr and Radarr instances that send downloads here (configuration section <c>Arr</c>).</summary>
public sealed class ArrOptions
{
    public const string SectionName = "Arr";

    public List<ArrInstanceOptions> Instances { get; set; } = [];

    /// <summary>Throws <see cref="ArgumentException"/> naming the instance and the setting that is wrong.</summary>
    public void Validate()
    {
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < Instances.Count; i++)
        {
            var instance = Instances[i] ?? throw new ArgumentException($"Arr:Instances:{i} is empty.");
            instance.Validate();
            if (!names.Add(instance.Name))
            {
                throw new ArgumentException($"Arr instance name '{instance.Name}' is used twice; names must be unique.");
            }
        }
    }
}

/// <summary>One Sonarr or Radarr instance: where it is and the API key to call it with.</summary>
public sealed record ArrInstanceOptions
{
    /// <summary>Unique (case-insensitive) display name.</summary>
    public string Name { get; init; } = "";

    public ArrKind Kind { get; init; } = ArrKind.Sonarr;

    /// <summary>The instance's address with its URL base, if any: <c>http://sonarr:8989</c> or <c>https://host/sonarr</c>.</summary>
    public string Url { get; init; } = "";

    /// <summary>Settings → General → API Key in Sonarr or Radarr; sent as the <c>X-Api-Key</c> header only.</summary>
    public string ApiKey { get; init; } = "";

    /// <summary>False keeps the instance configured but never called.</summary>
    public bool Enabled { get; init; } = true;

    /// <summary>The SABnzbd categories this instance sends; empty means it may own a download of any category.</summary>
    public IReadOnlyList<string> Categories { get; init; } = [];

    /// <summary>Deadline of one HTTP call to the instance.</summary>
    public TimeSpan Timeout { get; init; } = TimeSpan.FromSeconds(15);

    /// <summary>The longest <see cref="Timeout"/> accepted: a repair waits for every call it makes.</summary>
    public static readonly TimeSpan MaxTimeout = TimeSpan.FromMinutes(5);

    /// <summary>The categories without blank entries (configuration lists merge by index, and a blank one is ignored).</summary>
    public IReadOnlyList<string> EffectiveCategories() =>
        [.. Categories.Where(static c => !string.IsNullOrWhiteSpace(c)).Select(static c => c.Trim())];

    /// <summary>Whether this instance lists <paramref name="category"/> among its categories.</summary>
    public bool Lists(string category) =>
        EffectiveCategories().Any(c => string.Equals(c, category.Trim(), StringComparison.OrdinalIgnoreCase));

    /// <summary>The <see cref="Url"/> as a base address ending in '/', so relative API paths keep the URL base.</summary>
    public Uri BaseAddress()
    {
        var url = Url.Trim();
        return new Uri(url.EndsWith('/') ? url : url + "/", UriKind.Absolute);
    }

    /// <summary>Throws <see cref="ArgumentException"/> naming the setting; the message never holds the API key.</summary>
    public void Validate()
    {
        if (string.IsNullOrWhiteSpace(Name))
        {
            throw new ArgumentException("Every Arr instance needs a Name.");
        }

        if (ArrFields.All.FirstProblem(this) is { } problem)
        {
            throw new ArgumentException(problem.MessageFor($"Arr instance '{Name}'"));
        }
    }
}
