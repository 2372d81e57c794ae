using System.Collections.Concurrent;
using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>
/// Kills every live child when this process is ended by SIGTERM or SIGHUP, or exits. Neither signal
/// runs finally blocks (nor, measured on .NET 10, ProcessExit handlers), and orphans would go on
/// holding their ports and CPU.
/// </summary>
internal static class ChildProcessGuard
{
    private static readonly PosixSignal[] EndingSignals = [PosixSignal.SIGTERM, PosixSignal.SIGHUP];
    private static readonly ConcurrentDictionary<Process, byte> Live = new();
    private static readonly Lazy<IReadOnlyList<PosixSignalRegistration>> Registrations = new(Register);

    public static void Watch(Process process)
    {
        _ = Registrations.Value;
        Live.TryAdd(process, 0);
    }

    public static void Forget(Process process) => Live.TryRemove(process, out _);

    private static List<PosixSignalRegistration> Register()
    {
        AppDomain.CurrentDomain.ProcessExit += (_, _) => KillAll();
        var registrations = new List<PosixSignalRegistration>();
        foreach (var signal in EndingSignals)
        {
            try
            {
                // The handler does not cancel the signal: this process still ends as it would have.
                registrations.Add(PosixSignalRegistration.Create(signal, _ => KillAll()));
            }
            catch (PlatformNotSupportedException)
            {
                // Not a signal of this platform.
            }
        }

        return registrations;
    }

    private static void KillAll()
    {
        foreach (var process in Live.Keys)
        {
            try
            {
                process.Kill(entireProcessTree: true);
            }
            catch (Exception ex) when (ex is InvalidOperationException or Win32Exception)
            {
                // Already gone, or disposed by a run ending at the same moment.
            }
        }
    }
}
