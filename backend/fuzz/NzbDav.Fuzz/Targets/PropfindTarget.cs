using NzbDav.Server.WebDav;

namespace NzbDav.Fuzz.Targets;

/// <summary>
/// The PROPFIND body parser. It answers null for anything that is not a propfind document (the
/// handler then sends 400), so there is no clean-rejection exception: any exception is a finding.
/// Inputs over the handler's body limit are cut to it, as the handler never passes more.
/// </summary>
public sealed class PropfindTarget : FuzzTarget
{
    public override string Name => "propfind";

    public override bool Run(byte[] input)
    {
        var body = input.AsMemory(0, Math.Min(input.Length, PropfindRequest.MaxBodyBytes));
        var request = PropfindRequest.Parse(body);
        if (request is { Mode: PropfindMode.Prop } && request.Properties.Distinct().Count() != request.Properties.Count)
        {
            throw new FuzzFindingException("A prop request lists a property twice.");
        }
        return request is not null;
    }
}
