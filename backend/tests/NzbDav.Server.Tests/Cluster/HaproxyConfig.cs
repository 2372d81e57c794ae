using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;

namespace NzbDav.Server.Tests.Cluster;

/// <summary>The shipped docker/haproxy.cfg pointed at this machine's test nodes (no Docker DNS here).</summary>
internal static partial class HaproxyConfig
{
    /// <summary>
    /// The configuration listening on 127.0.0.1:<paramref name="port"/>, its servers nzbdav-1, nzbdav-2…
    /// named node-a, node-b… at the given ports; servers beyond them are dropped.
    /// </summary>
    public static string Configure(string shipped, int port, params int[] nodes)
    {
        var config = shipped.Replace("bind :3000", $"bind 127.0.0.1:{port}", StringComparison.Ordinal)
            .Replace(" resolvers docker", "", StringComparison.Ordinal);
        config = ResolversSection().Replace(config, "");
        config = ServerLines().Replace(config, match =>
        {
            var n = int.Parse(match.Groups["n"].Value, System.Globalization.CultureInfo.InvariantCulture);
            return n <= nodes.Length ? $"    server node-{(char)('a' + n - 1)} 127.0.0.1:{nodes[n - 1]}" : "";
        });
        return config;
    }

    public static int FreePort()
    {
        using var probe = new TcpListener(IPAddress.Loopback, 0);
        probe.Start();
        return ((IPEndPoint)probe.LocalEndpoint).Port;
    }

    [GeneratedRegex(@"^    server nzbdav-(?<n>\d) nzbdav-\d:3000$", RegexOptions.Multiline)]
    private static partial Regex ServerLines();

    [GeneratedRegex(@"^resolvers docker\n(    .*\n)+", RegexOptions.Multiline)]
    private static partial Regex ResolversSection();
}
