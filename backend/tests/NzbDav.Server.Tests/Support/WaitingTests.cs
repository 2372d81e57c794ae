using NzbDav.Testing;
using Xunit.Sdk;
using static NzbDav.Testing.Waiting;

namespace NzbDav.Server.Tests.Support;

/// <summary>The shared waits of backend/tests/NzbDav.Testing: they return as soon as the condition holds, and fail saying what never did.</summary>
public sealed class WaitingTests
{
    [Fact]
    public async Task A_wait_returns_on_the_poll_where_the_condition_first_holds()
    {
        var polls = 0;

        await WaitUntilAsync(() => ++polls == 3, TestContext.Current.CancellationToken);

        Assert.Equal(3, polls);
    }

    [Fact]
    public async Task A_condition_that_never_holds_fails_naming_it_the_time_waited_and_the_state()
    {
        var error = await Assert.ThrowsAsync<FailException>(() =>
            WaitUntilAsync(() => DateTime.UnixEpoch.Year == 1971, () => "still 1970", TimeSpan.FromMilliseconds(50), TestContext.Current.CancellationToken));

        Assert.Equal("Waited 0.05 s for () => DateTime.UnixEpoch.Year == 1971; it did not happen. Last seen: still 1970", error.Message);
    }

    [Fact]
    public async Task A_poll_returns_the_reading_it_accepted()
    {
        var readings = new Queue<int>([1, 2, 5, 8]);

        var accepted = await PollAsync(_ => Task.FromResult(readings.Dequeue()), r => r > 4, "a reading above 4",
            DefaultTimeout, TimeSpan.FromMilliseconds(1), null, TestContext.Current.CancellationToken);

        Assert.Equal(5, accepted);
        Assert.Equal([8], readings);
    }

    [Fact]
    public void Slow_tests_carry_the_trait_the_fast_loop_filters_out()
    {
        var traits = new SlowTestAttribute("for the test").GetTraits();

        Assert.Equal([new KeyValuePair<string, string>("Category", "Slow")], traits);
    }
}
