using System.Security.Cryptography;

namespace NzbDav.Server.Api;

/// <summary>SABnzbd-style job ids: <c>SABnzbd_nzo_</c> and random lowercase letters and digits.</summary>
public static class NzoIds
{
    private const string Alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

    public static string Create() => "SABnzbd_nzo_" + RandomNumberGenerator.GetString(Alphabet, 12);
}
