namespace NzbDav.Archives.Release;

/// <summary>The name chosen for one input file.</summary>
/// <param name="Index">Position of the file in the input list.</param>
/// <param name="Name">Safe relative path, unique (case-insensitively) within the job.</param>
/// <param name="Source">Where the name came from.</param>
/// <param name="Par2Match">The PAR2 description that matched the file, even when its name was not used.</param>
public sealed record ResolvedReleaseName(int Index, string Name, ReleaseNameSource Source, Par2FileDescription? Par2Match);
