namespace NzbDav.Tools.Testing.DavBenchmark;

/// <summary>A ranged GET at <paramref name="Percent"/> of the file, on a fresh server-side stream.</summary>
public sealed record RangedGet(int Percent, long Offset, GetMeasurement Measurement);
