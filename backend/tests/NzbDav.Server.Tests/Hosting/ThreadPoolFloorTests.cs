using NzbDav.Server.Hosting;

namespace NzbDav.Server.Tests.Hosting;

public sealed class ThreadPoolFloorTests
{
    [Theory]
    [InlineData(1, 16)]
    [InlineData(2, 16)]
    [InlineData(16, 16)]
    [InlineData(64, 64)]
    public void The_floor_raises_a_small_minimum_and_never_lowers_a_large_one(int workers, int expected) =>
        Assert.Equal(expected, ThreadPoolFloor.Floor(workers));

    [Fact]
    public void Applying_it_leaves_the_pool_with_at_least_the_floor()
    {
        ThreadPoolFloor.Apply();
        ThreadPool.GetMinThreads(out var workers, out _);
        Assert.True(workers >= ThreadPoolFloor.MinimumWorkers, $"{workers} workers");
    }
}
