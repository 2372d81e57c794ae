namespace NzbDav.Tools.Demo;

/// <summary>The sample video could not be made (ffmpeg missing or failing).</summary>
public sealed class SampleVideoException : Exception
{
    public SampleVideoException(string message)
        : base(message)
    {
    }

    public SampleVideoException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
