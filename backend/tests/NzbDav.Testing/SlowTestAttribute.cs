using Xunit.v3;

namespace NzbDav.Testing;

/// <summary>
/// Marks a test (or every test of a class) as slow: trait <c>Category=Slow</c>. The full suite
/// (<c>bash tools/test.sh</c>, CI) runs it; the fast loop (<c>bash tools/test.sh --fast</c>)
/// filters it out with <c>Category!=Slow</c>. docs/testing.md says what counts as slow.
/// </summary>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Method, AllowMultiple = false)]
public sealed class SlowTestAttribute : Attribute, ITraitAttribute
{
    public const string Category = "Category";

    public const string Slow = "Slow";

    /// <param name="reason">Why the test is slow (what it waits for or runs); read by people, not by xUnit.</param>
    public SlowTestAttribute(string reason) => Reason = reason;

    public string Reason { get; }

    public IReadOnlyCollection<KeyValuePair<string, string>> GetTraits() => [new(Category, Slow)];
}
