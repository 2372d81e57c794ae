using System.Globalization;

namespace NzbDav.MockNntp.Cli;

/// <summary>The executable's arguments, parsed and validated.</summary>
public sealed class MockCommandLine
{
    public const string Usage = """
        Usage: MockNntpServer [options]
          --size MB            generated file size in MiB (default 100; 0 = none)
          --segment-size KB    decoded bytes per article in KiB (default 700)
          --post PATH          post a real file, or every file in a directory (repeatable)
          --latency MS         simulated round trip per command (default 0)
          --jitter MS          latency varies by ± this (default 0)
          --bandwidth KBps     per-connection send cap in KiB/s (default unlimited)
          --stall FRAC         fraction of article commands that hang 10 s, then drop the connection
          --missing FRAC       fraction of articles answered 430
          --drop FRAC          fraction of bodies cut off midway by closing the connection
          --max-connections N  answer 502 beyond N concurrent connections
          --user U --pass P    require AUTHINFO USER/PASS
          --tls                implicit TLS with a self-signed certificate
          --transit-mode       act like INN to a feeding peer: 401 MODE-READER until MODE READER
          --seed N             seed for content and fault draws (default 1)
          --port P             port on 127.0.0.1 (default 0 = pick a free one)
          --nzb-out PATH       where to write the NZB (default: temp folder)
          --control            accept XMOCK MISSING … ON|OFF to make articles disappear/return at runtime,
                               and XMOCK LATENCY <ms> [<jitter ms>] to slow every answer
          --help               show this text
        Prints "MOCK-NNTP-READY port=<port> nzb=<path>" once listening; Ctrl+C or SIGTERM stops it.
        """;

    public MockNntpOptions Options { get; private init; } = new();
    public long SizeBytes { get; private init; } = 100L * 1024 * 1024;
    public int SegmentSize { get; private init; } = 700 * 1024;
    public IReadOnlyList<string> Posts { get; private init; } = [];
    public string? NzbOut { get; private init; }
    public bool Help { get; private init; }

    /// <summary>Parses <paramref name="args"/>; throws <see cref="ArgumentException"/> with a readable message on bad input.</summary>
    public static MockCommandLine Parse(IReadOnlyList<string> args)
    {
        var behavior = new MockBehavior();
        var posts = new List<string>();
        long size = 100;
        long segmentKb = 700;
        int? maxConnections = null;
        string? user = null, pass = null, nzbOut = null;
        int seed = 1, port = 0;
        var tls = false;
        var transit = false;
        var control = false;
        var help = false;
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            string Value() => i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{name} needs a value.");
            switch (name)
            {
                case "--size": size = Integer(name, Value(), 0, 1L << 20); break;
                case "--segment-size": segmentKb = Integer(name, Value(), 1, 64 * 1024); break;
                case "--post": posts.Add(ExistingPath(Value())); break;
                case "--latency": behavior.Latency = TimeSpan.FromMilliseconds(Integer(name, Value(), 0, 600_000)); break;
                case "--jitter": behavior.Jitter = TimeSpan.FromMilliseconds(Integer(name, Value(), 0, 600_000)); break;
                case "--bandwidth": behavior.BandwidthBytesPerSecond = Integer(name, Value(), 1, long.MaxValue / 1024) * 1024; break;
                case "--stall": behavior.StallFraction = Fraction(name, Value()); break;
                case "--missing": behavior.MissingFraction = Fraction(name, Value()); break;
                case "--drop": behavior.DropFraction = Fraction(name, Value()); break;
                case "--max-connections": maxConnections = (int)Integer(name, Value(), 1, 100_000); break;
                case "--user": user = Value(); break;
                case "--pass": pass = Value(); break;
                case "--tls": tls = true; break;
                case "--transit-mode": transit = true; break;
                case "--control": control = true; break;
                case "--seed": seed = (int)Integer(name, Value(), int.MinValue, int.MaxValue); break;
                case "--port": port = (int)Integer(name, Value(), 0, 65535); break;
                case "--nzb-out": nzbOut = Value(); break;
                case "--help" or "-h": help = true; break;
                default: throw new ArgumentException($"Unknown option '{name}'.");
            }
        }
        if (user is null != pass is null)
        {
            throw new ArgumentException("--user and --pass must be given together.");
        }
        if (size == 0 && posts.Count == 0 && !help)
        {
            throw new ArgumentException("Nothing to serve: --size 0 needs at least one --post.");
        }
        return new MockCommandLine
        {
            Options = new MockNntpOptions
            {
                Port = port, UseTls = tls, TransitMode = transit, User = user, Password = pass, MaxConnections = maxConnections, Seed = seed, Behavior = behavior, AllowControl = control,
            },
            SizeBytes = size * 1024 * 1024,
            SegmentSize = (int)(segmentKb * 1024),
            Posts = posts,
            NzbOut = nzbOut,
            Help = help,
        };
    }

    private static long Integer(string name, string text, long min, long max)
    {
        if (!long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) || value < min || value > max)
        {
            throw new ArgumentException($"{name} expects a whole number from {min} to {max}, got '{text}'.");
        }
        return value;
    }

    private static double Fraction(string name, string text)
    {
        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || value is < 0 or > 1 || double.IsNaN(value))
        {
            throw new ArgumentException($"{name} expects a fraction from 0 to 1, got '{text}'.");
        }
        return value;
    }

    private static string ExistingPath(string path) =>
        File.Exists(path) || Directory.Exists(path) ? Path.GetFullPath(path) : throw new ArgumentException($"--post: '{path}' does not exist.");
}
