using Microsoft.AspNetCore.Http.Features;

namespace NzbDav.Server.WebDav;

public sealed partial class DavRequestHandler
{
    /// <summary>PUT <c>/nzbs/[category/]name.nzb</c> adds a job exactly like SABnzbd's addfile.</summary>
    private async Task PutAsync(HttpContext context, IReadOnlyList<string> segments)
    {
        var cancellationToken = context.RequestAborted;
        if (segments.Count < 2 || segments[0] != DavTree.Nzbs)
        {
            await DavResponses.ReadOnlyAsync(context, "Only .nzb files can be uploaded, into /nzbs");
            return;
        }

        var name = segments[^1];
        if (!name.EndsWith(".nzb", StringComparison.OrdinalIgnoreCase))
        {
            await DavResponses.ReadOnlyAsync(context, "Only .nzb files can be uploaded, into /nzbs");
            return;
        }

        var category = tree.NzbFolderCategory([.. segments.Take(segments.Count - 1)]);
        if (category is null)
        {
            await DavResponses.TextAsync(context, StatusCodes.Status409Conflict, "No such folder; use /nzbs or /nzbs/<category>");
            return;
        }

        // Without Content-Length or chunked framing an HTTP/1.1 body is empty: say what is missing
        // rather than queue an empty NZB.
        if (context.Request.ContentLength is null && context.Features.Get<IHttpRequestBodyDetectionFeature>() is { CanHaveBody: false })
        {
            await DavResponses.TextAsync(context, StatusCodes.Status411LengthRequired, "Send the NZB with a Content-Length or chunked");
            return;
        }

        var limit = options.CurrentValue.MaxNzbBytes;
        // One byte over the limit reaches ReadBodyAsync, which answers the 413 itself.
        NzbDav.Server.Hosting.HttpLimits.AllowRequestBody(context, limit + 1);
        var nzb = await ReadBodyAsync(context, limit, cancellationToken);
        if (nzb is null)
        {
            await DavResponses.TextAsync(context, StatusCodes.Status413PayloadTooLarge, $"NZB is larger than {limit} bytes");
            return;
        }

        var outcome = await submitter.SubmitAsync(nzb, name, null, category, 0, null, Api.InvalidNzb.History, cancellationToken);
        if (outcome.NzoId is null)
        {
            await DavResponses.TextAsync(context, StatusCodes.Status409Conflict, outcome.Error ?? "Refused");
            return;
        }

        logger.LogInformation("Added {NzoId} from WebDAV upload {Name} ({Category})", outcome.NzoId, name, category);
        await DavResponses.TextAsync(context, StatusCodes.Status201Created, outcome.NzoId);
    }

    /// <summary>DELETE of a queued NZB or a job's content folder removes the job; everything else is read-only.</summary>
    private async Task DeleteAsync(HttpContext context, IReadOnlyList<string> segments)
    {
        var cancellationToken = context.RequestAborted;
        var resource = await tree.ResolveAsync(segments, BaseUrl(context), cancellationToken);
        if (resource is null)
        {
            await DavResponses.TextAsync(context, StatusCodes.Status404NotFound, "Not found");
            return;
        }

        if (resource is not { Kind: DavResourceKind.QueuedNzb or DavResourceKind.JobFolder, JobId: { } jobId })
        {
            await DavResponses.ReadOnlyAsync(context, "Only queued NZBs and job folders under /content can be deleted");
            return;
        }

        if (!await remover.RemoveAsync(jobId, cancellationToken))
        {
            await DavResponses.TextAsync(context, StatusCodes.Status404NotFound, "Not found");
            return;
        }

        context.Response.StatusCode = StatusCodes.Status204NoContent;
    }
}
