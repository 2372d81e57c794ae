namespace NzbDav.Usenet.Limiting;

/// <summary>
/// The right to run one operation (hold one connection). Disposing it gives the capacity back;
/// disposing it again, or disposing a copy, does nothing. <c>default</c> is an empty permit.
/// </summary>
public readonly struct LimiterPermit : IDisposable
{
    private readonly GlobalOperationLimiter? _owner;
    private readonly PermitCell? _cell;
    private readonly int _generation;

    internal LimiterPermit(GlobalOperationLimiter owner, PermitCell cell, OperationKind kind)
    {
        _owner = owner;
        _cell = cell;
        _generation = cell.Generation;
        Kind = kind;
    }

    /// <summary>The pool this permit counts against.</summary>
    public OperationKind Kind { get; }

    /// <summary>True while this permit has not been released.</summary>
    public bool IsHeld => _cell is not null && _cell.Generation == _generation;

    /// <summary>Releases the permit; wakes at most one waiter.</summary>
    public void Dispose()
    {
        if (_cell is not null && _cell.TryRetire(_generation))
        {
            _owner!.Release(Kind, _cell);
        }
    }
}
