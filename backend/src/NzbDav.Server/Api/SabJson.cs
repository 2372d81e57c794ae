using System.Text.Json;
using System.Text.Json.Serialization;

namespace NzbDav.Server.Api;

/// <summary>JSON settings and helpers for SABnzbd-shaped answers (field names are set per property as SAB spells them).</summary>
public static class SabJson
{
    public static JsonSerializerOptions Options { get; } = new(JsonSerializerDefaults.Web)
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
    };

    public static IResult Ok(object body) => Results.Json(body, Options);

    /// <summary>SABnzbd answers errors with HTTP 200 and <c>status:false</c>; Sonarr reads the error text from the body.</summary>
    public static IResult Error(string message) => Results.Json(new SabStatus(false, message), Options);

    /// <summary>
    /// The same body with an HTTP error status, for a request that is broken as HTTP (a body too large
    /// or not a readable form) rather than an API call SABnzbd would answer.
    /// </summary>
    public static IResult Error(string message, int statusCode) => Results.Json(new SabStatus(false, message), Options, statusCode: statusCode);

    public static IResult True() => Results.Json(new SabStatus(true, null), Options);
}
