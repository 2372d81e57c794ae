using NzbDav.MockNntp;
using NzbDav.Streaming.Tests.Support;
using static NzbDav.Streaming.Tests.Support.StreamHarness;

namespace NzbDav.Streaming.Tests;

/// <summary>Errors on one segment are retried elsewhere; when nobody has it, the read names it.</summary>
public sealed class FailoverTests
{
    private const int SegmentSize = 30 * 1024;

    [Fact]
    public async Task Articles_missing_on_the_primary_are_read_from_the_backup()
    {
        await using var primary = await StartServerAsync(messageIdToken: "shared-a");
        await using var backup = await StartServerAsync(messageIdToken: "shared-a");
        var file = primary.Store.AddGeneratedFile("mirror.bin", (12L * SegmentSize) + 99, SegmentSize);
        var copy = backup.Store.AddGeneratedFile("mirror.bin", file.Size, SegmentSize);
        Assert.Equal(file.Articles[4].MessageId, copy.Articles[4].MessageId);
        primary.Store.SetMissing(file.Articles[4], true);
        primary.Store.SetMissing(file.Articles[9], true);
        await using var harness = Create(null, Provider(primary, "primary", priority: 0), Provider(backup, "backup", priority: 1));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 20_000, Token);
        }

        // The two missing ones at least (the stream may also lease connections to the second provider).
        Assert.True(backup.Stats.GetCommandCount(MockCommandKind.Body) >= 2);
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_primary_that_drops_connections_mid_article_fails_over_without_corrupting_data()
    {
        await using var primary = await StartServerAsync(latency: TimeSpan.FromMilliseconds(1), messageIdToken: "shared-b");
        await using var backup = await StartServerAsync(messageIdToken: "shared-b");
        var file = primary.Store.AddGeneratedFile("drops.bin", (40L * SegmentSize) + 5, SegmentSize);
        backup.Store.AddGeneratedFile("drops.bin", file.Size, SegmentSize);
        primary.Behavior.DropFraction = 0.4;
        await using var harness = Create(null, Provider(primary, "primary", priority: 0), Provider(backup, "backup", priority: 1));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 64 * 1024, Token);
            Assert.True(stream.Statistics.Retries > 0, "expected retries after dropped connections");
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_segment_no_provider_has_makes_the_read_throw_naming_it()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("gone.bin", 8L * SegmentSize, SegmentSize);
        var missing = file.Articles[5];
        server.Store.SetMissing(missing, true);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 5 * SegmentSize, Token);
            var error = await Assert.ThrowsAsync<SegmentUnavailableException>(() => stream.ReadAsync(new byte[1000], Token).AsTask());
            Assert.Equal(6, error.SegmentNumber);
            Assert.Equal(missing.MessageId, error.MessageId);
            Assert.Contains("Segment 6", error.Message);
            Assert.Contains(missing.MessageId, error.Message);
            Assert.Equal(5L * SegmentSize, stream.Position); // nothing was returned for it

            // The rest of the file is still readable, and the article may come back.
            stream.Position = 6L * SegmentSize;
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 7000, Token);
            server.Store.SetMissing(missing, false);
            stream.Position = 5L * SegmentSize;
            await StreamAssert.ReadsExactlyAsync(stream, file, SegmentSize, Token);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_large_read_that_reaches_a_lost_segment_returns_the_bytes_before_it_first()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("gone-late.bin", 8L * SegmentSize, SegmentSize);
        server.Store.SetMissing(file.Articles[5], true);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            stream.Position = (3L * SegmentSize) + 17;
            var buffer = new byte[4 * SegmentSize];
            var offset = stream.Position;
            var error = await Assert.ThrowsAsync<SegmentUnavailableException>(async () =>
            {
                while (true)
                {
                    var read = await stream.ReadAsync(buffer, Token);
                    StreamAssert.AssertBytes(file, offset, buffer.AsSpan(0, read));
                    offset += read;
                }
            });

            Assert.Equal(6, error.SegmentNumber);
            Assert.Equal(5L * SegmentSize, offset); // every byte before the lost segment was handed over
            Assert.Equal(offset, stream.Position);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_corrupt_article_on_the_primary_is_replaced_by_the_backups_good_copy()
    {
        await using var primary = await StartServerAsync(messageIdToken: "shared-c");
        await using var backup = await StartServerAsync(messageIdToken: "shared-c");
        var file = primary.Store.AddGeneratedFile("crc.bin", 6L * SegmentSize, SegmentSize);
        backup.Store.AddGeneratedFile("crc.bin", file.Size, SegmentSize);
        primary.Store.SetCorrupt(file.Articles[3], true);
        await using var harness = Create(new StreamingOptions { ServeUnverifiedBytes = false }, Provider(primary, "primary", priority: 0), Provider(backup, "backup", priority: 1));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 10_000, Token);
        }

        Assert.True(backup.Stats.GetCommandCount(MockCommandKind.Body) >= 1, $"backup BODY count {backup.Stats.GetCommandCount(MockCommandKind.Body)}, primary {primary.Stats.GetCommandCount(MockCommandKind.Body)}");
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task Unverified_bytes_from_a_corrupt_copy_are_never_silently_served()
    {
        await using var primary = await StartServerAsync(messageIdToken: "shared-d");
        await using var backup = await StartServerAsync(messageIdToken: "shared-d");
        var file = primary.Store.AddGeneratedFile("crc2.bin", 6L * SegmentSize, SegmentSize);
        backup.Store.AddGeneratedFile("crc2.bin", file.Size, SegmentSize);
        primary.Store.SetCorrupt(file.Articles[2], true);
        await using var harness = Create(null, Provider(primary, "primary", priority: 0), Provider(backup, "backup", priority: 1));

        await using (var stream = await harness.OpenAsync(file))
        {
            // Bytes are handed out before the CRC is known. Either the reader got there after the
            // good copy replaced the bad one, or it was handed bytes of the bad copy and a read
            // fails naming the segment before the reader gets past it: a read-through that ends
            // without an error has only ever returned the right bytes.
            using var copy = new MemoryStream();
            try
            {
                await stream.CopyToAsync(copy, 1000, Token);
                StreamAssert.AssertBytes(file, 0, copy.ToArray());
                Assert.Equal(file.Size, copy.Length);
            }
            catch (SegmentUnavailableException error)
            {
                Assert.Equal(3, error.SegmentNumber);
                Assert.InRange(copy.Length, 2L * SegmentSize, (3L * SegmentSize) - 1);
            }
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task An_article_corrupt_on_the_only_provider_fails_the_read_with_its_number()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("crc3.bin", 4L * SegmentSize, SegmentSize);
        server.Store.SetCorrupt(file.Articles[1], true);
        await using var harness = Create(new StreamingOptions { ServeUnverifiedBytes = false }, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            stream.Position = SegmentSize + 10;
            var error = await Assert.ThrowsAsync<SegmentUnavailableException>(() => stream.ReadAsync(new byte[1000], Token).AsTask());
            Assert.Equal(2, error.SegmentNumber);
            Assert.Contains("CRC", error.ToString());
            // The provider's attempts per provider (2), after the first segment: then nobody is left to ask.
            Assert.Equal(2, server.Stats.GetCommandCount(MockCommandKind.Body) - 1);
        }

        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_copy_whose_header_contradicts_the_file_is_refused_and_read_from_the_backup()
    {
        await using var primary = await StartServerAsync(messageIdToken: "shared-e");
        await using var backup = await StartServerAsync(messageIdToken: "shared-e");
        var file = primary.Store.AddGeneratedFile("liar.bin", (6L * SegmentSize) + 321, SegmentSize);
        backup.Store.AddGeneratedFile("liar.bin", file.Size, SegmentSize);
        primary.Store.SetWrongFileSize(file.Articles[3], true);
        await using var harness = Create(null, Provider(primary, "primary", priority: 0), Provider(backup, "backup", priority: 1));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 10_000, Token);
            Assert.Equal(file.Size, stream.Length);
        }

        // The backup was asked for the refused segment (the stream may lease backup connections for others too).
        Assert.True(backup.Stats.GetCommandCount(MockCommandKind.Body) >= 1, $"backup BODY count {backup.Stats.GetCommandCount(MockCommandKind.Body)}");
        await harness.AssertAllReturnedAsync();
    }

    [Fact]
    public async Task A_header_contradicting_the_file_on_the_only_provider_fails_the_read_naming_why()
    {
        await using var server = await StartServerAsync();
        var file = server.Store.AddGeneratedFile("liar2.bin", 5L * SegmentSize, SegmentSize);
        server.Store.SetWrongFileSize(file.Articles[2], true);
        await using var harness = Create(null, Provider(server));

        await using (var stream = await harness.OpenAsync(file))
        {
            await StreamAssert.ReadsExactlyAsync(stream, file, 2 * SegmentSize, Token);
            var error = await Assert.ThrowsAsync<SegmentUnavailableException>(() => stream.ReadAsync(new byte[1000], Token).AsTask());
            Assert.Equal(3, error.SegmentNumber);
            Assert.Contains($"says the file has {file.Size + 1} bytes", error.ToString());
            Assert.Equal(2L * SegmentSize, stream.Position); // nothing of the refused copy was returned

            // Past it, the file reads on.
            stream.Position = 3L * SegmentSize;
            await StreamAssert.ReadsToEndExactlyAsync(stream, file, 7000, Token);
        }

        await harness.AssertAllReturnedAsync();
    }
}
