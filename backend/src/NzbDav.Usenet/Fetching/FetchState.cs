using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Fetching;

/// <summary>What a <see cref="FetchGroup"/> knows about one request; its loop is the only writer.</summary>
internal sealed class FetchState
{
    /// <summary>Attempts running for the request (one, or more while racing a straggler).</summary>
    public List<FetchAttempt> Attempts { get; } = new(2);

    /// <summary>Attempts that failed (430s excluded: each rules out a provider, so they end by themselves).</summary>
    public int FailedAttempts { get; set; }

    /// <summary>Straggler races started for the request.</summary>
    public int Races { get; set; }

    public bool Queued { get; set; }

    /// <summary>When a reader was first seen waiting on the request (timestamp of the group's clock); 0 = never.</summary>
    public long WaitedSince { get; set; }

    /// <summary>The slow-read warning was logged for the request (once is enough).</summary>
    public bool SlowLogged { get; set; }

    /// <summary>Why the last race of the request could or could not start, for the slow-read warning.</summary>
    public string? RacerNote { get; set; }

    /// <summary>When the race now due first waited for a backup session (timestamp of the group's clock); 0 = not waiting.</summary>
    public long RaceLeaseWaitSince { get; set; }

    /// <summary>When the group last looked at racing the request (timestamp of the group's clock), and what it decided, for the slow-read warnings.</summary>
    public long RaceCheckedAt { get; set; }

    public string? RaceCheck { get; set; }

    /// <summary>How often the group looked at racing the request (a loop spinning on it shows here).</summary>
    public int RaceChecks { get; set; }

    public void CheckedRace(long now, string outcome)
    {
        RaceCheckedAt = now;
        RaceCheck = outcome;
        RaceChecks++;
    }

    /// <summary>
    /// Block accounts may fetch the request: every other provider answered 430, or a reader has
    /// waited on it past the client's <see cref="Providers.UsenetClient.BlockAccountAfter"/>. Never unset.
    /// </summary>
    public bool BlockAllowed { get; set; }

    /// <summary>The group answered the request; nothing more is reported.</summary>
    public bool Settled { get; set; }

    /// <summary>The worker whose connection failed the request last, avoided on the retry.</summary>
    public FetchWorker? Avoid { get; set; }

    /// <summary>Providers that lack the article, sent a corrupt copy or failed it too often: retries go elsewhere.</summary>
    public List<string>? BadProviders { get; set; }

    /// <summary>Providers that answered 430.</summary>
    public List<string>? MissingOn { get; set; }

    /// <summary>Every failure other than a 430, in order.</summary>
    public List<ProviderFailure>? Failures { get; set; }

    public bool IsBad(string provider) => BadProviders?.Contains(provider) == true;

    public void MarkBad(string provider)
    {
        BadProviders ??= new List<string>(2);
        if (!BadProviders.Contains(provider))
        {
            BadProviders.Add(provider);
        }
    }

    public void AddMissing(string provider)
    {
        MissingOn ??= new List<string>(2);
        if (!MissingOn.Contains(provider))
        {
            MissingOn.Add(provider);
        }
    }

    public int FaultsOn(string provider)
    {
        var count = 0;
        if (Failures is { } failures)
        {
            foreach (var failure in failures)
            {
                if (failure.ProviderName == provider)
                {
                    count++;
                }
            }
        }
        return count;
    }
}
