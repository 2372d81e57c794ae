namespace NzbDav.Tools.Demo;

/// <summary>Demo mode could not bring its sample library up (a job failed or never completed).</summary>
public sealed class DemoFailedException : Exception
{
    public DemoFailedException(string message)
        : base(message)
    {
    }

    public DemoFailedException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
