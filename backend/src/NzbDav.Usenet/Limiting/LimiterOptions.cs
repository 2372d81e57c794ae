using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Limiting;

/// <summary>
/// The budget of a <see cref="GlobalOperationLimiter"/>. Each kind has a guaranteed share it gets
/// back first whenever capacity frees, and may borrow idle capacity beyond it up to its maximum.
/// Streaming's guarantee is whatever queue and health checks do not reserve, and never less than
/// half the budget: a configuration that would leave streaming less is rejected.
/// </summary>
public sealed record LimiterOptions
{
    /// <summary>Concurrent operations (connections) in total; see <see cref="BudgetOf"/>.</summary>
    public required int TotalConnections { get; init; }

    /// <summary>Connections queue ingestion always gets back first.</summary>
    public int QueueGuarantee { get; init; }

    /// <summary>Connections health checks always get back first.</summary>
    public int HealthCheckGuarantee { get; init; }

    /// <summary>Most connections queue ingestion may hold by borrowing; null = the whole budget.</summary>
    public int? QueueMaximum { get; init; }

    /// <summary>Most connections health checks may hold by borrowing; null = the whole budget.</summary>
    public int? HealthCheckMaximum { get; init; }

    /// <summary>
    /// A kind that holds nothing and has been passed over this many grants in a row gets the next
    /// one, so a kind with no guarantee (tiny budgets) still makes progress under constant streaming.
    /// </summary>
    public int StarvationLimit { get; init; } = 32;

    /// <summary>Streaming's guaranteed share: the budget minus the other guarantees.</summary>
    public int StreamingGuarantee => TotalConnections - QueueGuarantee - HealthCheckGuarantee;

    /// <summary>
    /// The budget for a provider list: the sum of the primary providers' MaxConnections. Backup-only
    /// providers add nothing: an operation uses a backup connection only instead of a primary one
    /// (after a 430 or a failure), never alongside it, and each backup pool still enforces its own
    /// cap. Block accounts add nothing either (their sessions are leased outside the budget, each
    /// pool holding its own cap). With no primary at all, the backups' total is the budget, and
    /// with block accounts only, theirs.
    /// </summary>
    public static int BudgetOf(IEnumerable<UsenetProviderOptions> providers)
    {
        ArgumentNullException.ThrowIfNull(providers);
        int primaries = 0, backups = 0, blocks = 0;
        foreach (var provider in providers)
        {
            switch (provider.Role)
            {
                case ProviderRole.Primary:
                    primaries += provider.MaxConnections;
                    break;
                case ProviderRole.Block:
                    blocks += provider.MaxConnections;
                    break;
                default:
                    backups += provider.MaxConnections;
                    break;
            }
        }

        return primaries > 0 ? primaries : backups > 0 ? backups : blocks;
    }

    /// <summary>Default shares for the budget of <paramref name="providers"/>.</summary>
    public static LimiterOptions CreateDefault(IEnumerable<UsenetProviderOptions> providers) =>
        CreateDefault(BudgetOf(providers));

    /// <summary>
    /// Default shares for a budget of <paramref name="totalConnections"/>: queue max(1, N/10), health
    /// max(1, N/20), streaming the rest; health and then queue drop to 0 when streaming would not
    /// otherwise hold a strict majority. Queue and health can still borrow idle capacity.
    /// </summary>
    public static LimiterOptions CreateDefault(int totalConnections)
    {
        if (totalConnections < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(totalConnections), totalConnections,
                "The connection budget must be at least 1: configure at least one provider with MaxConnections >= 1.");
        }

        var queue = Math.Max(1, totalConnections / 10);
        var health = Math.Max(1, totalConnections / 20);
        var majority = (totalConnections / 2) + 1;
        if (totalConnections - queue - health < majority)
        {
            health = 0;
        }

        if (totalConnections - queue - health < majority)
        {
            queue = 0;
        }

        return new LimiterOptions
        {
            TotalConnections = totalConnections,
            QueueGuarantee = queue,
            HealthCheckGuarantee = health,
        };
    }

    internal int GuaranteeOf(OperationKind kind) => kind switch
    {
        OperationKind.Streaming => StreamingGuarantee,
        OperationKind.Queue => QueueGuarantee,
        _ => HealthCheckGuarantee,
    };

    internal int MaximumOf(OperationKind kind) => kind switch
    {
        OperationKind.Streaming => TotalConnections,
        OperationKind.Queue => QueueMaximum ?? TotalConnections,
        _ => HealthCheckMaximum ?? TotalConnections,
    };

    /// <summary>Throws <see cref="ArgumentException"/> naming the offending setting.</summary>
    public void Validate()
    {
        if (TotalConnections < 1)
        {
            throw new ArgumentException($"{nameof(TotalConnections)} is {TotalConnections}; it must be at least 1 (the sum of the primary providers' MaxConnections).");
        }

        if (QueueGuarantee < 0 || HealthCheckGuarantee < 0)
        {
            throw new ArgumentException($"{nameof(QueueGuarantee)} ({QueueGuarantee}) and {nameof(HealthCheckGuarantee)} ({HealthCheckGuarantee}) must not be negative.");
        }

        var half = (TotalConnections + 1) / 2;
        if (StreamingGuarantee < half)
        {
            throw new ArgumentException(
                $"{nameof(QueueGuarantee)} ({QueueGuarantee}) + {nameof(HealthCheckGuarantee)} ({HealthCheckGuarantee}) leave streaming " +
                $"{StreamingGuarantee} of {TotalConnections} connections; together they may reserve at most {TotalConnections - half} so streaming keeps at least half. Lower them.");
        }

        CheckMaximum(nameof(QueueMaximum), QueueMaximum, QueueGuarantee);
        CheckMaximum(nameof(HealthCheckMaximum), HealthCheckMaximum, HealthCheckGuarantee);
        if (StarvationLimit < 1)
        {
            throw new ArgumentException($"{nameof(StarvationLimit)} is {StarvationLimit}; it must be at least 1.");
        }
    }

    private static void CheckMaximum(string name, int? maximum, int guarantee)
    {
        if (maximum is { } value && value < Math.Max(1, guarantee))
        {
            throw new ArgumentException($"{name} is {value}; it must be at least 1 and at least its guarantee ({guarantee}).");
        }
    }
}
