namespace NzbDav.Usenet.Yenc;

/// <summary>A parsed header without its file name, so an equal <see cref="YencHeader"/> can be reused.</summary>
internal readonly record struct YencHeaderFields(long FileSize, int LineLength, int? Part, int? TotalParts, long PartBegin, long PartSize)
{
    public YencHeader ToHeader(string fileName)
        => new(fileName, FileSize, LineLength, Part, TotalParts, PartBegin, PartSize);

    public bool Matches(YencHeader header)
        => header.FileSize == FileSize && header.LineLength == LineLength && header.Part == Part
            && header.TotalParts == TotalParts && header.PartBegin == PartBegin && header.PartSize == PartSize;
}
