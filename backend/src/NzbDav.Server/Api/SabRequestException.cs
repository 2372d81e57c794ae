namespace NzbDav.Server.Api;

/// <summary>A SABnzbd API request that cannot be read as HTTP: a body too large, a form that is not one.</summary>
public sealed class SabRequestException : Exception
{
    public SabRequestException()
    {
    }

    public SabRequestException(string message)
        : base(message)
    {
    }

    public SabRequestException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    public SabRequestException(int statusCode, string message, Exception? innerException = null)
        : base(message, innerException)
    {
        StatusCode = statusCode;
    }

    /// <summary>The HTTP status to answer (400 or 413).</summary>
    public int StatusCode { get; } = StatusCodes.Status400BadRequest;
}
