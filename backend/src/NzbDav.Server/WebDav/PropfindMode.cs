namespace NzbDav.Server.WebDav;

/// <summary>Which PROPFIND form the client sent.</summary>
public enum PropfindMode
{
    AllProp,
    PropName,
    Prop,
}
