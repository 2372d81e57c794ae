using System.Runtime.InteropServices;

namespace NzbDav.Tools.Testing;

/// <summary>
/// Runs a console command whose first Ctrl+C or SIGTERM cancels it cleanly (child processes stopped,
/// connections closed, temporary folders removed); a second Ctrl+C kills the process.
/// </summary>
internal static class ConsoleCancellation
{
    public static async Task<int> RunAsync(Func<CancellationToken, Task<int>> run)
    {
        using var cancellation = new CancellationTokenSource();
        void OnCancel(object? sender, ConsoleCancelEventArgs e)
        {
            if (!cancellation.IsCancellationRequested)
            {
                e.Cancel = true;
                cancellation.Cancel();
            }
        }

        // Without this a SIGTERM (a timeout, docker stop) ends the process without its finally
        // blocks: a generated library or a started server would be left behind.
        using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
        {
            context.Cancel = true;
            cancellation.Cancel();
        });
        Console.CancelKeyPress += OnCancel;
        try
        {
            return await run(cancellation.Token);
        }
        finally
        {
            Console.CancelKeyPress -= OnCancel;
        }
    }
}
