namespace NzbDav.Archives.Release;

/// <summary>How the volumes of a multi-file set are named.</summary>
public enum VolumeScheme
{
    /// <summary><c>name.part1.rar</c>, <c>name.part01.rar</c>, … (numbered from 1, any width).</summary>
    RarPart,

    /// <summary><c>name.rar</c>, <c>name.r00</c> … <c>name.r99</c>, <c>name.s00</c> … (the .rar is volume 0).</summary>
    RarOld,

    /// <summary><c>name.7z.001</c>, <c>name.7z.002</c>, … (numbered from 1).</summary>
    SevenZip,

    /// <summary><c>name.ext.001</c>, <c>name.ext.002</c>, … pieces of one file joined in order (numbered from 1).</summary>
    Split,
}
