using NzbDav.Usenet.Configuration;

namespace NzbDav.Server.Api;

public sealed partial class SabApiHandler
{
    private async Task<IResult> AddFileAsync(SabRequest request, CancellationToken cancellationToken)
    {
        var file = request.NzbFile;
        if (file is null)
            return SabJson.Error("expects one parameter");
        if (file.Length > options.CurrentValue.MaxNzbBytes)
            return SabJson.Error($"NZB is larger than {ByteSize.Format(options.CurrentValue.MaxNzbBytes)}, the largest NZB allowed (Settings → SABnzbd → Largest NZB)", StatusCodes.Status413PayloadTooLarge);
        var bytes = new byte[file.Length];
        await using (var stream = file.OpenReadStream())
        {
            await stream.ReadExactlyAsync(bytes, cancellationToken);
        }

        return await SubmitAsync(request, bytes, file.FileName, cancellationToken);
    }

    private async Task<IResult> AddUrlAsync(SabRequest request, CancellationToken cancellationToken)
    {
        var address = request.Get("name");
        if (!Uri.TryCreate(address, UriKind.Absolute, out _))
            return SabJson.Error("expects one parameter");
        var (nzb, fileName, error) = await urlFetcher.FetchAsync(address, cancellationToken);
        return nzb is null ? SabJson.Error(error!) : await SubmitAsync(request, nzb, fileName, cancellationToken);
    }

    private async Task<IResult> SubmitAsync(SabRequest request, byte[] nzb, string fileName, CancellationToken cancellationToken)
    {
        var outcome = await submitter.SubmitAsync(nzb, fileName, request.Get("nzbname"), request.Get("cat"), request.GetInt("priority", 0), request.Get("password"), InvalidNzb.History, cancellationToken);
        return outcome.NzoId is null ? SabJson.Error(outcome.Error!) : SabJson.Ok(new SabAddResult(true, [outcome.NzoId]));
    }
}
