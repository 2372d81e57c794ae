namespace NzbDav.Server.Queue;

/// <summary>A job cannot be ingested; the message becomes the history <c>fail_message</c>.</summary>
public sealed class IngestionFailedException(string message, Exception? innerException = null) : Exception(message, innerException);
