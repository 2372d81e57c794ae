using System.Buffers.Text;
using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using NzbDav.Server.Configuration;

namespace NzbDav.Server.WebDav;

/// <summary>
/// Signed links for <c>.strm</c> entries: <c>&lt;base&gt;/.ids/&lt;id&gt;?t=&lt;token&gt;</c>, where the token
/// is an HMAC of the file's id under a key kept in the data directory. A player that cannot send the
/// WebDAV login (Jellyfin plays a .strm by plain URL) reads that one file with it; every other
/// request still needs the login. The key survives restarts because imported .strm files keep
/// their URLs for as long as they are in the library.
/// </summary>
public sealed class StrmLinks
{
    public const string Parameter = "t";
    internal const string KeyFile = "strm-links.key";

    private readonly Lazy<byte[]> _key;

    public StrmLinks(IOptionsMonitor<NzbDavOptions> options, ILogger<StrmLinks> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        _key = new Lazy<byte[]>(() => LoadOrCreate(Path.Combine(options.CurrentValue.DataDirectory, KeyFile), logger));
    }

    /// <summary>The query that lets the holder read the file <paramref name="id"/>: "t=…".</summary>
    public string Query(Guid id) => Parameter + "=" + Token(id);

    /// <summary>Whether the request is a read of one file under /.ids carrying that file's token.</summary>
    public bool Admits(HttpContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var request = context.Request;
        if (!HttpMethods.IsGet(request.Method) && !HttpMethods.IsHead(request.Method))
            return false;
        var path = request.Path.Value;
        var prefix = "/" + DavTree.Ids + "/";
        if (path is null || !path.StartsWith(prefix, StringComparison.Ordinal) || !Guid.TryParseExact(path.AsSpan(prefix.Length), "D", out var id))
            return false;
        var given = request.Query[Parameter];
        if (given.Count != 1 || given[0] is not { Length: > 0 } token)
            return false;
        Span<byte> expected = stackalloc byte[16];
        Sign(id, expected);
        Span<byte> decoded = stackalloc byte[32];
        return Base64Url.TryDecodeFromChars(token, decoded, out var written) && written == expected.Length
            && CryptographicOperations.FixedTimeEquals(decoded[..written], expected);
    }

    private string Token(Guid id)
    {
        Span<byte> mac = stackalloc byte[16];
        Sign(id, mac);
        return Base64Url.EncodeToString(mac);
    }

    /// <summary>The first 128 bits of HMAC-SHA256(key, id): enough that a token cannot be guessed.</summary>
    private void Sign(Guid id, Span<byte> destination)
    {
        Span<byte> idBytes = stackalloc byte[16];
        id.TryWriteBytes(idBytes);
        Span<byte> mac = stackalloc byte[32];
        HMACSHA256.HashData(_key.Value, idBytes, mac);
        mac[..destination.Length].CopyTo(destination);
    }

    private static byte[] LoadOrCreate(string path, ILogger logger)
    {
        try
        {
            if (File.Exists(path))
            {
                var stored = File.ReadAllBytes(path);
                if (stored.Length == 32)
                    return stored;
                logger.LogWarning("{Path} does not hold a 32-byte key; a new one is made and older .strm links stop working", path);
            }

            var key = RandomNumberGenerator.GetBytes(32);
            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
            var mode = new FileStreamOptions { Mode = FileMode.Create, Access = FileAccess.Write };
            if (!OperatingSystem.IsWindows())
                mode.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
            using (var file = new FileStream(path, mode))
                file.Write(key);
            return key;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            // Links still work until the next start; say why they will not after it.
            logger.LogWarning(ex, "The .strm link key could not be kept in {Path}; links made now stop working at the next start", path);
            return RandomNumberGenerator.GetBytes(32);
        }
    }
}
