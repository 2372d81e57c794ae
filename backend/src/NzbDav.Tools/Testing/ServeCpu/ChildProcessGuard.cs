using System.ComponentModel;
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>
/// Kills one child's process tree when this process is ended by SIGTERM or SIGHUP, or exits, for as
/// long as the guard lives. Neither signal runs finally blocks (nor, measured on .NET 10,
/// ProcessExit handlers), and an orphan would go on holding its port and CPU. Each child owns its
/// guard, so nothing is shared between runs.
/// </summary>
internal sealed class ChildProcessGuard : IDisposable
{
    private static readonly PosixSignal[] EndingSignals = [PosixSignal.SIGTERM, PosixSignal.SIGHUP];

    private readonly Process _process;
    private readonly List<PosixSignalRegistration> _registrations = [];
    private readonly EventHandler _onExit;

    public ChildProcessGuard(Process process)
    {
        _process = process;
        _onExit = (_, _) => Kill();
        AppDomain.CurrentDomain.ProcessExit += _onExit;
        foreach (var signal in EndingSignals)
        {
            try
            {
                // The handler does not cancel the signal: this process still ends as it would have.
                _registrations.Add(PosixSignalRegistration.Create(signal, _ => Kill()));
            }
            catch (PlatformNotSupportedException)
            {
                // Not a signal of this platform.
            }
        }
    }

    public void Dispose()
    {
        AppDomain.CurrentDomain.ProcessExit -= _onExit;
        foreach (var registration in _registrations)
            registration.Dispose();
        _registrations.Clear();
    }

    private void Kill()
    {
        try
        {
            _process.Kill(entireProcessTree: true);
        }
        catch (Exception ex) when (ex is InvalidOperationException or Win32Exception)
        {
            // Already gone, or disposed by a run ending at the same moment.
        }
    }
}
