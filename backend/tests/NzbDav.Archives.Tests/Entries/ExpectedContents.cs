namespace NzbDav.Archives.Tests.Entries;

/// <summary>The size and SHA-256 table of backend/tests/TestData/archives/README.md.</summary>
internal static class ExpectedContents
{
    public static readonly IReadOnlyDictionary<string, (long Size, string Sha256)> Files = new Dictionary<string, (long, string)>
    {
        ["exe/test.exe"] = (45056, "8557928804f57ecc340b3bb38b095a3607474ec8deb0076f316fcfe02b562106"),
        ["jpg/test.jpg"] = (40372, "b251c7501fb0f55dd4a92feabe0a6f5733bc40a02679498155fae9b30138fc53"),
        ["тест.txt"] = (15498, "4d581d93d369f6e1c9b295ff38d82dabd577f927dfaf0c35818c015c85e322d9"),
    };

    public static readonly (long Size, string Sha256) StoredBin = (300000, "2f0dfd9db28e6c51bf969d5aaf89936b2229001807cd91eb9de8276d9bdaf329");
}
