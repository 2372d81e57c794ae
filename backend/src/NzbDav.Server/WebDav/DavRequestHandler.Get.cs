using System.IO.Pipelines;
using System.Globalization;
using System.Text;

namespace NzbDav.Server.WebDav;

public sealed partial class DavRequestHandler
{
    private async Task GetAsync(HttpContext context, IReadOnlyList<string> segments)
    {
        var cancellationToken = context.RequestAborted;
        var baseUrl = BaseUrl(context);
        var resource = await tree.ResolveAsync(segments, baseUrl, cancellationToken);
        if (resource is null)
        {
            await DavResponses.TextAsync(context, StatusCodes.Status404NotFound, "Not found");
            return;
        }

        if (resource.IsCollection)
        {
            // A browser-friendly listing; DAV clients use PROPFIND.
            var children = await tree.ListAsync(resource, baseUrl, cancellationToken);
            var listing = new StringBuilder();
            foreach (var child in children)
                listing.Append(child.Href).Append('\n');
            await DavResponses.TextAsync(context, StatusCodes.Status200OK, listing.ToString().TrimEnd('\n'));
            return;
        }

        var response = context.Response;
        var headers = response.Headers;
        var total = resource.Length;
        headers.AcceptRanges = "bytes";
        headers.ETag = resource.ETag;
        headers.LastModified = resource.Modified.ToUniversalTime().ToString("R", CultureInfo.InvariantCulture);
        response.ContentType = DavContentTypes.For(resource.Name);

        var (outcome, range) = RangeSelector.Select(context.Request.Headers.Range, context.Request.Headers.IfRange, total, resource.ETag, resource.Modified);
        if (outcome == RangeOutcome.Unsatisfiable)
        {
            response.StatusCode = StatusCodes.Status416RangeNotSatisfiable;
            headers.ContentRange = "bytes */" + total.ToString(CultureInfo.InvariantCulture);
            response.ContentLength = 0;
            return;
        }

        if (outcome == RangeOutcome.Partial)
        {
            response.StatusCode = StatusCodes.Status206PartialContent;
            headers.ContentRange = string.Create(CultureInfo.InvariantCulture, $"bytes {range.From}-{range.To}/{total}");
        }
        else
        {
            response.StatusCode = StatusCodes.Status200OK;
            range = new ByteRange(0, total - 1);
        }

        response.ContentLength = range.Length;
        if (HttpMethods.IsHead(context.Request.Method) || range.Length == 0)
            return;
        await SendAsync(context, resource, range, cancellationToken);
    }

    private async Task SendAsync(HttpContext context, DavResource resource, ByteRange range, CancellationToken cancellationToken)
    {
        Stream source;
        RequestTraffic? traffic = null;
        if (resource.Content is { } content)
        {
            source = new MemoryStream(content, writable: false);
        }
        else
        {
            // The last registration wins, so a host can replace the production opener.
            var opener = openers.LastOrDefault();
            if (opener is null)
            {
                logger.LogError("No IDavFileOpener is registered; cannot stream {Path}", resource.Href);
                context.Response.Headers.ContentRange = default;
                context.Response.ContentLength = null;
                await DavResponses.TextAsync(context, StatusCodes.Status503ServiceUnavailable, "File streaming is not available in this build");
                return;
            }

            // The request's own account: which consumer it was is known once it is seen how it read.
            traffic = new RequestTraffic(new NzbDav.Usenet.Traffic.TrafficAccount("request"), context.Request.Headers.UserAgent.ToString(),
                context.Items.TryGetValue(Auth.BasicAuthMiddleware.AccountItem, out var user) ? user as string : null);
            try
            {
                source = await opener.OpenAsync(resource.Item!, range.From + range.Length, context.Request.Headers.Range.Count > 0, traffic.Account, cancellationToken);
            }
            catch (DavUnavailableException ex)
            {
                logger.LogWarning("Cannot stream {Path}: {Reason}", resource.Href, ex.Message);
                context.Response.Headers.ContentRange = default;
                context.Response.ContentLength = null;
                await DavResponses.TextAsync(context, StatusCodes.Status503ServiceUnavailable, ex.Message);
                return;
            }
        }

        // Disposed as soon as the copy ends, including when the client disconnects mid-body.
        await using (source)
        {
            try
            {
                if (range.From > 0)
                    source.Seek(range.From, SeekOrigin.Begin);
                using var active = streams.Start(resource.Href, context.Connection.RemoteIpAddress?.ToString(), range.From, range.Length, resource.Item?.Size ?? range.Length, source as NzbDav.Streaming.IReadAheadSource, traffic);
                await CopyToResponseAsync(context.Response.BodyWriter, source, active, resource.Href, cancellationToken);
            }
            catch (Exception ex) when (ex is IOException && !cancellationToken.IsCancellationRequested)
            {
                // The status line is gone already; cutting the connection is the only honest signal
                // that the body is incomplete (a short body would be silent truncation).
                logger.LogError(ex, "Streaming {Path} failed at range {From}-{To}", resource.Href, range.From, range.To);
                // Only a check decides what a failed read means: it may have been one provider's bad minute.
                if (resource.Item is { IsDirectory: false } item && ex is NzbDav.Streaming.SegmentUnavailableException)
                    health?.ReportReadError(item.Id);
                context.Abort();
            }
        }
    }

    /// <summary>
    /// Reads straight into Kestrel's response buffer: one copy less than writing a pooled buffer to
    /// the response stream, and one flush per read. Measured with <c>--test-webdav</c> alternating the
    /// two ways GET by GET in one process: 17 % less CPU and 22 % more throughput for a whole-file GET.
    /// A flush waits while Kestrel holds more than its response buffer limit, so a slow client slows
    /// the reads (and with them the segment fetches) instead of growing memory.
    /// </summary>
    private static async Task CopyToResponseAsync(PipeWriter writer, Stream source, ServedBody active, string href, CancellationToken cancellationToken)
    {
        var remaining = active.Length;
        while (remaining > 0)
        {
            var memory = writer.GetMemory((int)Math.Min(CopyBufferSize, remaining));
            var read = await source.ReadAsync(memory[..(int)Math.Min(memory.Length, remaining)], cancellationToken);
            if (read == 0)
                throw new EndOfStreamException($"{href} ended {remaining} bytes early");
            writer.Advance(read);
            remaining -= read;
            active.Advance(read);
            var flushed = await writer.FlushAsync(cancellationToken);
            // Completed: the connection is gone and Kestrel will not send more; nothing to stop but the reads.
            if (flushed.IsCompleted || flushed.IsCanceled)
                return;
        }
    }
}
