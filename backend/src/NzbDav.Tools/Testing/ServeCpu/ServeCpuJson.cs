namespace NzbDav.Tools.Testing.ServeCpu;

/// <summary>Writes a report as one line of JSON (camelCase; times in ms or s as named, sizes in bytes, MB = 10^6, GB = 10^9 bytes).</summary>
public static class ServeCpuJson
{
    public static string Format(ServeCpuReport report)
    {
        ArgumentNullException.ThrowIfNull(report);
        var options = report.Options;
        return JsonLine.Object(json =>
        {
            json.WriteString("command", "test-serve-cpu");
            json.WriteString("path", report.Path);
            json.WriteNumber("fileSize", report.FileSize);
            json.WriteNumber("latencyMs", options.LatencyMs);
            json.WriteNumber("jitterMs", options.JitterMs);
            json.WriteNumber("connections", options.Connections);
            json.WriteNumber("gets", options.Gets);
            json.WriteNumber("parallel", options.Parallel);
            json.WriteNumber("ingestionMs", Round(report.Ingestion.TotalMilliseconds));
            json.WriteNumber("warmupBytes", report.WarmupBytes);
            json.WriteStartArray("warmupMs");
            foreach (var get in report.WarmupTimes)
                json.WriteNumberValue(Round(get.TotalMilliseconds));
            json.WriteEndArray();
            json.WriteNumber("warmupCpuSecondsPerGb", Math.Round(report.WarmupCpuSecondsPerGb, 4));
            json.WriteNumber("bytesServed", report.BytesServed);
            json.WriteNumber("seconds", Math.Round(report.Elapsed.TotalSeconds, 3));
            json.WriteNumber("MBps", Round(report.MBps));
            json.WriteStartArray("getMs");
            foreach (var get in report.GetTimes)
                json.WriteNumberValue(Round(get.TotalMilliseconds));
            json.WriteEndArray();
            json.WriteNumber("serverCpuSeconds", Math.Round(report.ServerCpu.TotalSeconds, 3));
            json.WriteNumber("cpuSecondsPerGb", Math.Round(report.CpuSecondsPerGb, 4));
            json.WriteNumber("serverCores", Round(report.ServerCores));
            if (report.ContextSwitchesPerGb is { } switches)
                json.WriteNumber("contextSwitchesPerGb", Math.Round(switches));
            json.WriteNumber("serverPeakRssMB", Round(report.ServerPeakRssBytes / 1e6));
            json.WriteNumber("mockCpuSeconds", Math.Round(report.MockCpu.TotalSeconds, 3));
            json.WriteNumber("clientCpuSeconds", Math.Round(report.ClientCpu.TotalSeconds, 3));
        });
    }

    private static double Round(double value) => Math.Round(value, 2);
}
