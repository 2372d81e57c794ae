namespace NzbDav.Server.Health.Arr;

/// <summary>How one call to a Sonarr or Radarr ended, as a repair or a test needs to tell them apart.</summary>
public enum ArrCallOutcome
{
    /// <summary>Answered 2xx with what the API gives.</summary>
    Success,

    /// <summary>No answer: connection refused, host not found, TLS failure, or nothing within the timeout.</summary>
    Unreachable,

    /// <summary>401 or 403: the API key was refused.</summary>
    Unauthorized,

    /// <summary>404: no such record (or no such API at that address).</summary>
    NotFound,

    /// <summary>Any other status that is not 2xx.</summary>
    HttpError,

    /// <summary>2xx, but not the JSON this API answers (often a web page: the URL base is wrong).</summary>
    BadResponse,

    /// <summary>A write a dry run did not make.</summary>
    DryRun,
}

/// <summary>
/// The outcome of one client operation: <see cref="Calls"/> are the HTTP calls it made, in order (a
/// paged read makes several); <see cref="Value"/> is set only on <see cref="ArrCallOutcome.Success"/>.
/// </summary>
public sealed record ArrResult<T>(ArrCallOutcome Outcome, T? Value, IReadOnlyList<ArrCall> Calls)
{
    public bool Succeeded => Outcome is ArrCallOutcome.Success;

    /// <summary>The last call's status (null when it got no answer or was not made).</summary>
    public int? Status => Calls.Count == 0 ? null : Calls[^1].Status;

    /// <summary>Why the last call failed, in words without secrets; null when it did not.</summary>
    public string? Error => Calls.Count == 0 ? null : Calls[^1].Error;

    /// <summary>"answered 500 (…)" or "failed: connection refused", for a sentence naming the step.</summary>
    public string Describe() => (Status, Error) switch
    {
        ({ } status, { } error) => $"answered {status} ({error})",
        ({ } status, null) => $"answered {status}",
        (null, { } error) => $"got no answer ({error})",
        _ => Outcome is ArrCallOutcome.DryRun ? "was not made (dry run)" : "failed",
    };
}

/// <summary>The Test button's answer: whether the instance answered as the kind it is configured as, and if not, why.</summary>
public sealed record ArrTestResult(bool Ok, string? AppName, string? Version, string? Error);
