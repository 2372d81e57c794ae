namespace NzbDav.Tools.Testing;

/// <summary>Runs a console command whose first Ctrl+C cancels it cleanly (connections closed, temp files removed); a second one kills the process.</summary>
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
