using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using NzbDav.Data;
using NzbDav.Server.Configuration;
using NzbDav.Server.Queue;

namespace NzbDav.Server.Api;

/// <summary>
/// The SABnzbd API (<c>/api?mode=…</c>) as Sonarr/Radarr drive it. Answers are always JSON (also for
/// <c>output=xml</c>) and errors are HTTP 200 with <c>status:false</c> like SABnzbd's.
/// </summary>
public sealed partial class SabApiHandler(
    ApiKeyProvider apiKeys,
    IOptionsMonitor<NzbDavOptions> options,
    IDbContextFactory<NzbDavDbContext> contextFactory,
    JobSubmitter submitter,
    JobCommands jobs,
    QueuePause pause,
    IngestionProgress progress,
    TimeProvider timeProvider,
    NzbUrlFetcher urlFetcher,
    ILogger<SabApiHandler> logger)
{
    /// <summary>The SABnzbd version NzbDav presents itself as (Sonarr needs 0.7+; 4.x has every mode used here).</summary>
    public const string Version = "4.3.3";

    public async Task<IResult> HandleAsync(HttpRequest httpRequest, CancellationToken cancellationToken)
    {
        try
        {
            var request = await SabRequest.ReadAsync(httpRequest, options.CurrentValue.MaxNzbBytes, cancellationToken);
            var mode = request.Get("mode")?.ToLowerInvariant();
            if (mode == "version")
                return SabJson.Ok(new { version = Version });
            var authError = CheckApiKey(request.Get("apikey"));
            if (authError is not null)
                return SabJson.Error(authError);
            return mode switch
            {
                "get_config" => GetConfig(),
                "get_cats" => SabJson.Ok(new { categories = Categories() }),
                "fullstatus" or "status" => FullStatus(),
                "pause" => await SetGlobalPauseAsync(true, cancellationToken),
                "resume" => await SetGlobalPauseAsync(false, cancellationToken),
                "addfile" => await AddFileAsync(request, cancellationToken),
                "addurl" => await AddUrlAsync(request, cancellationToken),
                "queue" => await QueueAsync(request, cancellationToken),
                "history" => await HistoryAsync(request, cancellationToken),
                "retry" => await RetryAsync(request, cancellationToken),
                _ => SabJson.Error("not implemented"),
            };
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;
        }
        catch (SabRequestException ex)
        {
            // Broken as HTTP, not as an API call: the status says so; the body still reads like SAB's.
            logger.LogInformation("SABnzbd API request refused with {Status}: {Reason}", ex.StatusCode, ex.Message);
            return SabJson.Error(ex.Message, ex.StatusCode);
        }
        catch (Exception ex) when (ex is BadHttpRequestException or InvalidDataException or IOException or DbUpdateException or InvalidOperationException)
        {
            // SAB never answers 500; neither do we: the *arr shows the error text.
            logger.LogError(ex, "SABnzbd API call failed");
            return SabJson.Error(ex.Message);
        }
    }

    private string? CheckApiKey(string? given)
    {
        if (string.IsNullOrEmpty(given))
            return "API Key Required";
        return apiKeys.Matches(given) ? null : "API Key Incorrect";
    }

    private string[] Categories() => [SabCategories.Default, .. options.CurrentValue.EffectiveCategories];

    private IResult GetConfig()
    {
        var settings = options.CurrentValue;
        var categories = Categories().Select((name, order) => new
        {
            name,
            order,
            pp = "3",
            script = "None",
            dir = name == SabCategories.Default ? "" : name,
            newzbin = "",
            priority = -100,
        });
        return SabJson.Ok(new
        {
            config = new
            {
                misc = new
                {
                    complete_dir = settings.CompleteDirectory,
                    download_dir = settings.MountPath.TrimEnd('/') + "/incomplete",
                    enable_tv_sorting = false,
                    enable_movie_sorting = false,
                    enable_date_sorting = false,
                    pre_check = false,
                    tv_categories = Array.Empty<string>(),
                    movie_categories = Array.Empty<string>(),
                    date_categories = Array.Empty<string>(),
                    history_retention = "0",
                    api_key = "",
                    nzb_key = "",
                },
                categories,
                servers = Array.Empty<object>(),
                sorters = Array.Empty<object>(),
            },
        });
    }

    private async Task<IResult> SetGlobalPauseAsync(bool paused, CancellationToken cancellationToken)
    {
        await pause.SetAsync(paused, cancellationToken);
        return SabJson.True();
    }

    private IResult FullStatus()
    {
        var settings = options.CurrentValue;
        return SabJson.Ok(new
        {
            status = new
            {
                version = Version,
                paused = pause.IsPaused || settings.Queue.Hold,
                completedir = settings.CompleteDirectory,
                downloaddir = settings.MountPath.TrimEnd('/') + "/incomplete",
                speedlimit = "100",
                kbpersec = SabFormat.KbPerSecond(progress.Running.Sum(p => p.BytesPerSecond)),
                have_warnings = "0",
                servers = Array.Empty<object>(),
            },
        });
    }
}
