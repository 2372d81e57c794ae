using System.Net.Sockets;
using NzbDav.Usenet.Nntp;
using NzbDav.Usenet.Providers;

namespace NzbDav.Usenet.Tests.Providers;

/// <summary>How a provider failure reads on the dashboard and in the provider test: what happened and what to do.</summary>
public sealed class ProviderFaultsTests
{
    private static readonly UsenetProviderOptions Provider = new() { Name = "news", Host = "news.example", Port = 119, UseTls = false };

    private static string Explain(Exception error) => ProviderFaults.Explain(error, Provider, TimeSpan.FromSeconds(10));

    [Fact]
    public void A_session_the_server_ended_says_so_and_where_not_the_raw_protocol_words()
    {
        var closed = new NntpProtocolException("'news' closed the connection.") { PeerClosed = true };
        Assert.Equal("news.example:119 closed the connection: the server went away or ended the session; if it lasts, check the provider's status page and your account.", Explain(closed));
        // Wrapped as a pool or a broken session passes it on, it reads the same.
        Assert.Equal(Explain(closed), Explain(new NntpProtocolException("The connection to 'news' is broken: closed", closed)));
        // Something the server said wrong keeps its own words.
        Assert.Equal("'news' sent a status line longer than 512 bytes.", Explain(new NntpProtocolException("'news' sent a status line longer than 512 bytes.")));
    }

    [Fact]
    public void A_refusal_at_greeting_names_the_code_the_servers_words_and_the_likely_fix()
    {
        Assert.Equal(
            "news.example:119 refused service (502 Too many connections): the account may have too many connections open elsewhere, or the server is down; lower Max connections or check the provider's status page.",
            Explain(new NntpServiceUnavailableException(502, "Too many connections ")));
    }

    [Theory]
    [InlineData(SocketError.ConnectionRefused, "nothing accepts connections on news.example:119: check the host and port (119 without TLS, 563 with TLS).")]
    [InlineData(SocketError.ConnectionReset, "news.example:119 cut the connection: the server is down or turns this client away; if it lasts, check the provider's status page and your account.")]
    [InlineData(SocketError.Shutdown, "news.example:119 cut the connection: the server is down or turns this client away; if it lasts, check the provider's status page and your account.")]
    [InlineData(SocketError.HostNotFound, "the host name news.example was not found: check its spelling.")]
    public void Socket_errors_are_found_however_deeply_they_are_wrapped(SocketError code, string expected)
    {
        var socket = new SocketException((int)code);
        Assert.Equal(expected, Explain(new NntpProtocolException("connect failed", socket)));
        Assert.Equal(expected, Explain(new NntpProtocolException("read failed", new IOException("Unable to read data from the transport connection", socket))));
    }
}
