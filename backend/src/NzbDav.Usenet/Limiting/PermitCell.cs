namespace NzbDav.Usenet.Limiting;

/// <summary>
/// Reusable backing object of a <see cref="LimiterPermit"/>. The generation makes a permit's release
/// idempotent across struct copies: only the first release of a given generation wins the
/// compare-and-swap, and a stale copy still holding an older generation can never release the
/// permit a later holder received from the same recycled cell.
/// </summary>
internal sealed class PermitCell
{
    private int _generation;

    public int Generation => Volatile.Read(ref _generation);

    public bool TryRetire(int generation) =>
        Interlocked.CompareExchange(ref _generation, unchecked(generation + 1), generation) == generation;
}
