namespace NzbDav.Server.Tests.WebDav;

/// <summary>Range headers against a 1,000-byte file and the bytes a 206 must carry; one list for every over-the-wire client test.</summary>
public static class HttpRangeCases
{
    public static TheoryData<string, long, long> Satisfiable { get; } = new()
    {
        { "bytes=0-99", 0, 99 },
        { "bytes=990-", 990, 999 },
        { "bytes=-10", 990, 999 },
        { "bytes=-5000", 0, 999 },
        { "bytes=500-5000", 500, 999 },
        { "bytes=7-7", 7, 7 },
    };
}
