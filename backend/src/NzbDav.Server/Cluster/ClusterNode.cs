using System.Reflection;
using Microsoft.Extensions.Options;

namespace NzbDav.Server.Cluster;

/// <summary>This process as a node of the library: an id new at every start, its name and version.</summary>
public sealed class ClusterNode(IOptions<ClusterOptions> options)
{
    public Guid Id { get; } = Guid.NewGuid();

    public string Name { get; } = string.IsNullOrWhiteSpace(options.Value.NodeName) ? Environment.MachineName : options.Value.NodeName.Trim();

    public string Version { get; } =
        typeof(ClusterNode).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown";
}
