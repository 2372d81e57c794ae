using System.Text;

namespace NzbDav.Usenet.Tests.Nzb;

// Large generated NZBs shaped like real posts.
internal static class NzbGenerated
{
    // files files of segmentsPerFile segments each. With
    // shuffled, every file lists its segments in reverse, repeats its first
    // segment number with a second id, and drops segment 2.
    public static string Create(int files, int segmentsPerFile, bool shuffled)
    {
        var xml = new StringBuilder(files * segmentsPerFile * 100);
        xml.Append(NzbTestInput.Prolog).Append("<nzb xmlns=\"http://www.newzbin.com/DTD/2003/nzb\">\n")
            .Append("<head><meta type=\"name\">Generated.Release</meta><meta type=\"password\">pw</meta></head>\n");
        for (var f = 1; f <= files; f++)
        {
            xml.Append("<file poster=\"poster@example.com\" date=\"1700000000\" subject=\"[")
                .Append(f).Append('/').Append(files).Append("] - &quot;Generated.Release.part")
                .Append(f.ToString("D3")).Append(".rar&quot; yEnc (1/").Append(segmentsPerFile).Append(")\">\n")
                .Append("<groups><group>alt.binaries.test</group><group>alt.binaries.misc</group></groups>\n<segments>\n");
            for (var i = 0; i < segmentsPerFile; i++)
            {
                var n = shuffled ? segmentsPerFile - i : i + 1;
                if (shuffled && n == 2)
                    continue;
                AppendSegment(xml, f, n, segmentsPerFile, "AbCdEf123");
            }

            if (shuffled)
                AppendSegment(xml, f, 1, segmentsPerFile, "Duplicate9");
            xml.Append("</segments>\n</file>\n");
        }

        return xml.Append("</nzb>\n").ToString();
    }

    private static void AppendSegment(StringBuilder xml, int file, int number, int total, string tag) =>
        xml.Append("<segment bytes=\"").Append(739_000 + (number % 1000)).Append("\" number=\"").Append(number)
            .Append("\">part").Append(number).Append("of").Append(total).Append('.').Append(tag).Append(file)
            .Append("@news.example.com</segment>\n");
}
