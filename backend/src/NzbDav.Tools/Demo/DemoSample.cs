namespace NzbDav.Tools.Demo;

/// <summary>One file demo mode posts to its mock provider and ingests as its own job.</summary>
internal sealed record DemoSample(string JobName, string FileName, byte[]? Data, long GeneratedSize, int SegmentSize);
