using System.Text;
using NzbDav.MockNntp;
using NzbDav.Server.Tests.Data;

namespace NzbDav.Server.Tests.Api;

public sealed class SabApiTests
{
    private static byte[] SampleNzb(string title)
    {
        var server = new MockNntpServer();
        server.Store.AddFile("a1b2c3d4e5f6a7b8c9d0.bin", Encoding.ASCII.GetBytes("hello world"), 1024);
        using var output = new MemoryStream();
        server.WriteNzb(output, title);
        return output.ToArray();
    }

    [Fact]
    public async Task Version_config_and_categories_answer_like_sabnzbd()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await TestServer.StartAsync(temp.Path, null, holdQueue: true, ct, "--NzbDav:MountPath=/mnt/dav");

        var version = await server.GetAsync("mode=version", ct);
        Assert.StartsWith("4.", version.GetProperty("version").GetString());

        var config = await server.GetAsync("mode=get_config&apikey=" + TestServer.ApiKey, ct);
        var misc = config.GetProperty("config").GetProperty("misc");
        Assert.Equal("/mnt/dav/completed", misc.GetProperty("complete_dir").GetString());
        Assert.False(misc.GetProperty("enable_tv_sorting").GetBoolean());
        var tv = config.GetProperty("config").GetProperty("categories").EnumerateArray().Single(c => c.GetProperty("name").GetString() == "tv");
        Assert.Equal("tv", tv.GetProperty("dir").GetString());

        var cats = await server.GetAsync("mode=get_cats&apikey=" + TestServer.ApiKey, ct);
        Assert.Equal(["*", "tv", "movies", "audio", "software"], cats.GetProperty("categories").EnumerateArray().Select(c => c.GetString()));

        var status = await server.GetAsync("mode=fullstatus&apikey=" + TestServer.ApiKey, ct);
        Assert.Equal("/mnt/dav/completed", status.GetProperty("status").GetProperty("completedir").GetString());
    }

    [Theory]
    [InlineData("mode=queue&apikey=wrong", "API Key Incorrect")]
    [InlineData("mode=queue", "API Key Required")]
    [InlineData("mode=warp_drive&apikey=" + TestServer.ApiKey, "not implemented")]
    [InlineData("apikey=" + TestServer.ApiKey, "not implemented")]
    public async Task Errors_are_status_false_with_sabnzbd_messages(string query, string error)
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await TestServer.StartAsync(temp.Path, null, holdQueue: true, ct);

        var answer = await server.GetAsync(query, ct);

        Assert.False(answer.GetProperty("status").GetBoolean());
        Assert.Equal(error, answer.GetProperty("error").GetString());
    }

    [Fact]
    public async Task Addfile_accepts_both_field_names_and_the_queue_lists_and_deletes_the_jobs()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await TestServer.StartAsync(temp.Path, null, holdQueue: true, ct);

        var first = await server.AddFileAsync(SampleNzb("One"), "nzbfile", "Show.S01E01.nzb", "tv", ct);
        var second = await server.AddFileAsync(SampleNzb("Two"), "NAME", "Show.S01E02.nzb", "tv", ct);
        Assert.True(first.GetProperty("status").GetBoolean());
        var id1 = first.GetProperty("nzo_ids")[0].GetString()!;
        var id2 = second.GetProperty("nzo_ids")[0].GetString()!;
        Assert.StartsWith("SABnzbd_nzo_", id1);

        var queue = (await server.GetAsync("mode=queue&cat=tv&apikey=" + TestServer.ApiKey, ct)).GetProperty("queue");
        var slots = queue.GetProperty("slots").EnumerateArray().ToList();
        Assert.Equal([id1, id2], slots.Select(s => s.GetProperty("nzo_id").GetString()));
        Assert.Equal("Show.S01E01", slots[0].GetProperty("filename").GetString());
        Assert.Equal("Queued", slots[0].GetProperty("status").GetString());
        Assert.Equal("Normal", slots[0].GetProperty("priority").GetString());

        var limited = (await server.GetAsync("mode=queue&start=1&limit=1&apikey=" + TestServer.ApiKey, ct)).GetProperty("queue");
        Assert.Equal(id2, Assert.Single(limited.GetProperty("slots").EnumerateArray()).GetProperty("nzo_id").GetString());

        var paused = await server.GetAsync($"mode=queue&name=pause&value={id1}&apikey={TestServer.ApiKey}", ct);
        Assert.Equal(id1, paused.GetProperty("nzo_ids")[0].GetString());
        queue = (await server.GetAsync("mode=queue&apikey=" + TestServer.ApiKey, ct)).GetProperty("queue");
        Assert.Equal("Paused", queue.GetProperty("slots").EnumerateArray().Single(s => s.GetProperty("nzo_id").GetString() == id1).GetProperty("status").GetString());

        await server.GetAsync($"mode=queue&name=delete&value={id1},{id2}&del_files=1&apikey={TestServer.ApiKey}", ct);
        queue = (await server.GetAsync("mode=queue&apikey=" + TestServer.ApiKey, ct)).GetProperty("queue");
        Assert.Empty(queue.GetProperty("slots").EnumerateArray());
    }

    [Fact]
    public async Task Malformed_nzb_goes_to_history_as_failed_with_the_parser_message()
    {
        var ct = TestContext.Current.CancellationToken;
        using var temp = new TempDirectory();
        await using var server = await TestServer.StartAsync(temp.Path, null, holdQueue: true, ct);

        var added = await server.AddFileAsync("<nzb><file"u8.ToArray(), "name", "Broken.nzb", "movies", ct);
        var id = added.GetProperty("nzo_ids")[0].GetString();

        var history = (await server.GetAsync("mode=history&apikey=" + TestServer.ApiKey, ct)).GetProperty("history");
        var slot = Assert.Single(history.GetProperty("slots").EnumerateArray());
        Assert.Equal(id, slot.GetProperty("nzo_id").GetString());
        Assert.Equal("Failed", slot.GetProperty("status").GetString());
        Assert.Equal("movies", slot.GetProperty("category").GetString());
        Assert.StartsWith("Invalid NZB: ", slot.GetProperty("fail_message").GetString());
        Assert.Contains("line", slot.GetProperty("fail_message").GetString());

        var deleted = await server.GetAsync($"mode=history&name=delete&value={id}&apikey={TestServer.ApiKey}", ct);
        Assert.True(deleted.GetProperty("status").GetBoolean());
        history = (await server.GetAsync("mode=history&apikey=" + TestServer.ApiKey, ct)).GetProperty("history");
        Assert.Equal(0, history.GetProperty("noofslots").GetInt32());
    }
}
