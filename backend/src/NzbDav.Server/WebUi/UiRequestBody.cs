namespace NzbDav.Server.WebUi;

/// <summary>
/// Names the JSON body a UI API call reads itself, for its OpenAPI description. Not
/// <c>Accepts</c> metadata: that takes part in routing, and a request with another content type
/// would then miss the endpoint instead of getting its 415 with the reason.
/// </summary>
public sealed record UiRequestBody(Type Type, string ContentType = "application/json");
