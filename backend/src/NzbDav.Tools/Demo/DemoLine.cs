namespace NzbDav.Tools.Demo;

/// <summary>What a demo user needs to connect: the WebDAV root, its Basic-auth account and the SABnzbd API key.</summary>
public sealed record DemoLine(Uri Url, string User, string Password, string ApiKey, Uri Ui)
{
    /// <summary>Prefix of the single line demo mode prints once its jobs are Completed.</summary>
    public const string Prefix = "NZBDAV-DEMO";

    public override string ToString() => $"{Prefix} url={Url} user={User} password={Password} apikey={ApiKey} ui={Ui}";
}
