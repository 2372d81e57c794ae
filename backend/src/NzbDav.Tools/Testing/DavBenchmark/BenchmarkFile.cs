namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>A library file as the benchmark addresses it: its WebDAV path, size and true content.</summary>
internal sealed record BenchmarkFile(string Path, long Size, ExpectedBytesReader? Expected);
