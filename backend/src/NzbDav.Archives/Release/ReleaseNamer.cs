using System.Diagnostics.CodeAnalysis;

namespace NzbDav.Archives.Release;

/// <summary>
/// Chooses the displayed name of every file of a job: PAR2 description (matched by 16 KiB MD5 and
/// length) &gt; subject's quoted name &gt; yEnc name, skipping any candidate that looks obfuscated while a
/// better-looking one exists. Names are sanitised and made unique within the job deterministically.
/// Stateless: safe to register as a singleton.
/// </summary>
public sealed class ReleaseNamer
{
    /// <summary>Names every file in <paramref name="files"/>; the result is in input order.</summary>
    /// <param name="files">The job's files in NZB order.</param>
    /// <param name="par2Files">All PAR2 descriptions found in the job (duplicates are fine).</param>
    /// <param name="jobName">The job's name, given (with the right extension) to obfuscated videos.</param>
    [SuppressMessage("Performance", "CA1822:Mark members as static",
        Justification = "The namer is injected as a service (a singleton); a static method could not be.")]
    public IReadOnlyList<ResolvedReleaseName> Resolve(
        IReadOnlyList<ReleaseFileInput> files,
        IEnumerable<Par2FileDescription> par2Files,
        string? jobName = null)
    {
        ArgumentNullException.ThrowIfNull(files);
        ArgumentNullException.ThrowIfNull(par2Files);
        var matcher = new Par2Matcher(par2Files);
        var job = ReleaseNameSanitizer.Sanitize(jobName?.Replace('/', ' '));
        var chosen = new (string Name, ReleaseNameSource Source, Par2FileDescription? Match)[files.Count];
        for (var i = 0; i < files.Count; i++)
        {
            var match = matcher.Take(files[i]);
            var (name, source) = Choose(files[i], match, job, i);
            chosen[i] = (name, source, match);
        }

        var unique = ReleaseNameDeduplicator.MakeUnique(chosen.Select(c => (c.Name, c.Source)).ToArray());
        var result = new ResolvedReleaseName[files.Count];
        for (var i = 0; i < result.Length; i++)
        {
            result[i] = new ResolvedReleaseName(i, unique[i], chosen[i].Source, chosen[i].Match);
        }

        return result;
    }

    private static (string Name, ReleaseNameSource Source) Choose(
        ReleaseFileInput file, Par2FileDescription? match, string? job, int index)
    {
        (string? Name, ReleaseNameSource Source)[] candidates =
        [
            (ReleaseNameSanitizer.Sanitize(match?.Name), ReleaseNameSource.Par2),
            (ReleaseNameSanitizer.Sanitize(file.SubjectName ?? SubjectNames.QuotedName(file.Subject)), ReleaseNameSource.Subject),
            (ReleaseNameSanitizer.Sanitize(file.YencName), ReleaseNameSource.Yenc),
        ];
        var known = candidates.Where(c => c.Name is not null).ToArray();
        if (known.Length == 0)
        {
            return (WithExtension("file-" + (index + 1).ToString("D3"), file.Kind), ReleaseNameSource.Fallback);
        }

        var clear = Array.Find(known, c => !ObfuscatedNames.IsLikelyObfuscated(c.Name!));
        if (clear.Name is not null)
        {
            return (clear.Name, clear.Source);
        }

        var best = known[0];
        var kind = file.Kind != ReleaseFileKind.Unknown ? file.Kind : ReleaseFileClassifier.ClassifyName(best.Name);
        if (job is not null && ReleaseFileClassifier.IsVideo(kind) && !ObfuscatedNames.IsLikelyObfuscated(job))
        {
            var extension = ReleaseFileClassifier.HasKnownExtension(best.Name!)
                ? Path.GetExtension(best.Name!)
                : "." + ReleaseFileClassifier.CanonicalExtension(kind);
            return (job + extension, ReleaseNameSource.JobName);
        }

        return (WithExtension(best.Name!, file.Kind), best.Source);
    }

    /// <summary>Obfuscated names often drop the extension; the magic bytes tell which one belongs.</summary>
    private static string WithExtension(string name, ReleaseFileKind kind)
    {
        var extension = ReleaseFileClassifier.CanonicalExtension(kind);
        return extension is null || ReleaseFileClassifier.HasKnownExtension(name) ? name : name + "." + extension;
    }
}
