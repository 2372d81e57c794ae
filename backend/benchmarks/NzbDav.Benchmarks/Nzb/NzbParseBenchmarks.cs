using System.Text;
using BenchmarkDotNet.Attributes;
using NzbDav.Usenet.Nzb;

namespace NzbDav.Benchmarks.Nzb;

/// <summary>Parsing a 100,000-segment NZB (100 files × 1,000 segments) from memory.</summary>
[MemoryDiagnoser]
public class NzbParseBenchmarks
{
    private const int Files = 100;
    private const int SegmentsPerFile = 1000;

    private readonly NzbParser _parser = new();
    private byte[] _nzb = [];

    [GlobalSetup]
    public void Setup()
    {
        var random = new Random(20240601);
        var xml = new StringBuilder(Files * SegmentsPerFile * 110);
        xml.Append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n")
            .Append("<!DOCTYPE nzb PUBLIC \"-//newzBin//DTD NZB 1.1//EN\" \"http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd\">\n")
            .Append("<nzb xmlns=\"http://www.newzbin.com/DTD/2003/nzb\">\n <head>\n")
            .Append("  <meta type=\"name\">Some.Movie.2024.2160p.UHD.BluRay.x265-GRP</meta>\n")
            .Append("  <meta type=\"password\">s3cret</meta>\n </head>\n");
        for (var file = 1; file <= Files; file++)
        {
            xml.Append(" <file poster=\"Poster &lt;poster@example.com&gt;\" date=\"1717200000\" subject=\"[")
                .Append(file).Append('/').Append(Files).Append("] - &quot;Some.Movie.2024.2160p.UHD.BluRay.x265-GRP.part")
                .Append(file.ToString("D3")).Append(".rar&quot; yEnc (1/").Append(SegmentsPerFile).Append(")\">\n")
                .Append("  <groups>\n   <group>alt.binaries.movies</group>\n   <group>alt.binaries.hdtv</group>\n  </groups>\n")
                .Append("  <segments>\n");
            for (var number = 1; number <= SegmentsPerFile; number++)
            {
                xml.Append("   <segment bytes=\"").Append(739_000 + random.Next(1000)).Append("\" number=\"").Append(number)
                    .Append("\">part").Append(number).Append("of").Append(SegmentsPerFile).Append('.');
                for (var i = 0; i < 9; i++)
                    xml.Append((char)(random.Next(2) == 0 ? 'a' + random.Next(26) : 'A' + random.Next(26)));
                xml.Append("@news.example.com</segment>\n");
            }

            xml.Append("  </segments>\n </file>\n");
        }

        _nzb = Encoding.UTF8.GetBytes(xml.Append("</nzb>\n").ToString());
    }

    [Benchmark(Baseline = true)]
    public int Parse()
    {
        using var stream = new MemoryStream(_nzb, writable: false);
        return _parser.Parse(stream).Files.Count;
    }

    [Benchmark]
    public async Task<int> ParseAsync()
    {
        using var stream = new MemoryStream(_nzb, writable: false);
        var document = await _parser.ParseAsync(stream, CancellationToken.None);
        return document.Files.Count;
    }
}
