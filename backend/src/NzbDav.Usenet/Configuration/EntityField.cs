using System.Text.Json;

namespace NzbDav.Usenet.Configuration;

/// <summary>What a field holds, as the web UI edits it.</summary>
public enum FieldKind
{
    Text,
#pragma warning disable CA1720 // The word the UI and JSON Schema use for a whole number; it names no .NET type here.
    Integer,
#pragma warning restore CA1720
    Number,
    Boolean,
    Choice,
    /// <summary>Text that is stored but never sent back: the UI learns only whether one is set.</summary>
    Secret,
    /// <summary>A list of short texts (stored as <c>Key:0</c>, <c>Key:1</c>, …).</summary>
    List,
    /// <summary>A byte count or none: typed as a size ("1.5 GiB"), carried as a number of bytes.</summary>
    Bytes,
}

/// <summary>
/// One setting of a configured entity (a provider, a Sonarr instance): declared once, with what the
/// storage, the web UI's form and answers, the API description, validation and the "same account"
/// comparison each need. <see cref="EntityField{T}"/> adds how to read and write it on the entity.
/// </summary>
public abstract class EntityField
{
    private protected EntityField(string key, string jsonName, string label, FieldKind kind)
    {
        Key = key;
        JsonName = jsonName;
        Label = label;
        Kind = kind;
    }

    /// <summary>The configuration key under the entity (<c>Host</c> in <c>Usenet:Providers:0:Host</c>).</summary>
    public string Key { get; }

    /// <summary>The property name in the web UI's JSON (<c>host</c>); a secret appears in answers as <see cref="PresenceName"/>.</summary>
    public string JsonName { get; }

    /// <summary>How the UI and the error messages name it ("Max connections").</summary>
    public string Label { get; }

    public FieldKind Kind { get; }

    /// <summary>An empty value is refused.</summary>
    public bool Required { get; init; }

    /// <summary>
    /// A change points the entity at another account or server: live sessions of the old one are no
    /// longer valid, and the UI tests the entity before saving it.
    /// </summary>
    public bool Account { get; init; }

    /// <summary>Smallest value of an <see cref="FieldKind.Integer"/> or <see cref="FieldKind.Number"/>.</summary>
    public double? Min { get; init; }

    /// <summary>Largest value of an <see cref="FieldKind.Integer"/> or <see cref="FieldKind.Number"/>.</summary>
    public double? Max { get; init; }

    /// <summary>Longest text (of each item, for a list).</summary>
    public int? MaxLength { get; init; }

    /// <summary>Characters a text (or each item) may not hold, besides line breaks, which no field holds.</summary>
    public string? Forbidden { get; init; }

    /// <summary>One sentence shown under the field.</summary>
    public string? Help { get; init; }

    public string? Placeholder { get; init; }

    /// <summary>The values a <see cref="FieldKind.Choice"/> takes.</summary>
    public virtual IReadOnlyList<string>? Choices => null;

    /// <summary>The answer's property for a secret: <c>hasPassword</c> for <c>password</c>.</summary>
    public string PresenceName => "has" + char.ToUpperInvariant(JsonName[0]) + JsonName[1..];

    /// <summary>"between 1 and 65535", for the messages of numbers.</summary>
    protected string Range => $"between {Min?.ToString(System.Globalization.CultureInfo.InvariantCulture)} and {Max?.ToString(System.Globalization.CultureInfo.InvariantCulture)}";

    /// <summary>Why <paramref name="text"/> is not acceptable for this field (a phrase that follows its name), or null.</summary>
    protected string? TextProblem(string text)
    {
        if (text.AsSpan().ContainsAny('\r', '\n'))
        {
            return "cannot contain line breaks";
        }

        if (MaxLength is { } longest && text.Length > longest)
        {
            return $"must be at most {longest} characters";
        }

        if (Forbidden is { Length: > 0 } forbidden && text.AsSpan().IndexOfAny(forbidden) >= 0)
        {
            return "cannot contain " + ListOf(forbidden);
        }

        return null;
    }

    private static string ListOf(string characters)
    {
        var names = characters.Select(static c => c switch
        {
            ' ' => "spaces",
            '\t' => "tabs",
            _ => $"'{c}'",
        }).Distinct().ToList();
        return names.Count == 1 ? names[0] : string.Join(", ", names[..^1]) + " or " + names[^1];
    }
}

/// <summary>A field of <typeparamref name="T"/>; the kinds are the sealed classes beside it.</summary>
public abstract class EntityField<T> : EntityField
    where T : class
{
    private protected EntityField(string key, string jsonName, string label, FieldKind kind)
        : base(key, jsonName, label, kind)
    {
    }

    /// <summary>The value as the UI's JSON carries it; for a secret, whether one is set.</summary>
    public abstract object? ValueOf(T entity);

    /// <summary>Why the entity's value is not acceptable (a phrase that follows the field's name), or null.</summary>
    public abstract string? ProblemOf(T entity);

    /// <summary>Whether both entities hold the same value (host names compare without case).</summary>
    public abstract bool Same(T a, T b);

    /// <summary>The entity with this field set from the UI's JSON; <paramref name="problem"/> says why not when it cannot be.</summary>
    public abstract T Read(T entity, JsonElement value, out string? problem);

    /// <summary>Puts the value into a stored entity's keys (relative to the entity), removing the key when there is none.</summary>
    public abstract void Write(T entity, IDictionary<string, string?> keys);

    /// <summary>The entity with this field as <paramref name="from"/> has it (a secret kept when the UI sends none).</summary>
    public abstract T CopyFrom(T entity, T from);
}
