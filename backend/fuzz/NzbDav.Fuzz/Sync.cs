namespace NzbDav.Fuzz;

/// <summary>The harness entry points are synchronous (SharpFuzz hands over one input and waits).</summary>
internal static class Sync
{
    public static void Run(Func<Task> action)
    {
#pragma warning disable RS0030 // A fuzz input runs to completion before the next one: blocking here is the point.
        Task.Run(action).GetAwaiter().GetResult();
#pragma warning restore RS0030
    }
}
