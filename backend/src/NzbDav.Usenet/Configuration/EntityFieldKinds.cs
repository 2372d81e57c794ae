using System.Globalization;
using System.Text.Json;

namespace NzbDav.Usenet.Configuration;

/// <summary>
/// Text (or, with <c>secret: true</c>, a <see cref="FieldKind.Secret"/>). Texts are trimmed, secrets
/// taken as typed; an empty value is none (null).
/// </summary>
public sealed class TextField<T>(string key, string jsonName, string label, Func<T, string?> get, Func<T, string?, T> set, bool secret = false)
    : EntityField<T>(key, jsonName, label, secret ? FieldKind.Secret : FieldKind.Text)
    where T : class
{
    /// <summary>Compare without case (host names).</summary>
    public bool IgnoreCase { get; init; }

    /// <summary>A rule of the field's own beyond length and characters: the phrase why a value breaks it, or null.</summary>
    public Func<string, string?>? Rule { get; init; }



    public override object? ValueOf(T entity) => Kind == FieldKind.Secret ? !string.IsNullOrEmpty(get(entity)) : get(entity);

    public override string? ProblemOf(T entity)
    {
        var value = get(entity);
        if (string.IsNullOrEmpty(value))
        {
            return Required ? "is required" : null;
        }

        return TextProblem(value) ?? Rule?.Invoke(value);
    }

    public override bool Same(T a, T b) =>
        string.Equals(get(a) ?? "", get(b) ?? "", IgnoreCase ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal);

    public override T Read(T entity, JsonElement value, out string? problem)
    {
        problem = null;
        switch (value.ValueKind)
        {
            case JsonValueKind.Null or JsonValueKind.Undefined:
                // A secret the UI never had: the one stored stays.
                return Kind == FieldKind.Secret ? entity : set(entity, null);
            case JsonValueKind.String:
                var text = value.GetString()!;
                if (Kind == FieldKind.Secret)
                {
                    // "" removes an optional secret; a required one cannot be removed, so "" keeps it.
                    return text.Length > 0 ? set(entity, text) : Required ? entity : set(entity, null);
                }

                text = text.Trim();
                return set(entity, text.Length == 0 ? null : text);
            default:
                problem = "must be a text";
                return entity;
        }
    }

    public override void Write(T entity, IDictionary<string, string?> keys)
    {
        var value = get(entity);
        if (string.IsNullOrEmpty(value))
        {
            keys.Remove(Key);
        }
        else
        {
            keys[Key] = value;
        }
    }

    public override T CopyFrom(T entity, T from) => set(entity, get(from));
}

/// <summary>A whole number within <see cref="EntityField.Min"/> and <see cref="EntityField.Max"/>.</summary>
public sealed class IntegerField<T>(string key, string jsonName, string label, Func<T, int> get, Func<T, int, T> set)
    : EntityField<T>(key, jsonName, label, FieldKind.Integer)
    where T : class
{


    public override object? ValueOf(T entity) => get(entity);

    public override string? ProblemOf(T entity)
    {
        var value = get(entity);
        return value < Min || value > Max ? $"must be {Range}; {value.ToString(CultureInfo.InvariantCulture)} is not" : null;
    }

    public override bool Same(T a, T b) => get(a) == get(b);

    public override T Read(T entity, JsonElement value, out string? problem)
    {
        problem = null;
        if (value.ValueKind is JsonValueKind.Null or JsonValueKind.Undefined)
        {
            return entity;
        }

        if (value.ValueKind == JsonValueKind.Number && value.TryGetInt32(out var number))
        {
            return set(entity, number);
        }

        problem = $"must be a whole number {Range}";
        return entity;
    }

    public override void Write(T entity, IDictionary<string, string?> keys) => keys[Key] = get(entity).ToString(CultureInfo.InvariantCulture);

    public override T CopyFrom(T entity, T from) => set(entity, get(from));
}

/// <summary>
/// A number within <see cref="EntityField.Min"/> and <see cref="EntityField.Max"/>, stored as
/// <paramref name="store"/> writes it (a timeout in seconds is stored as a <see cref="TimeSpan"/>).
/// </summary>
public sealed class NumberField<T>(string key, string jsonName, string label, Func<T, double> get, Func<T, double, T> set, Func<double, string> store)
    : EntityField<T>(key, jsonName, label, FieldKind.Number)
    where T : class
{


    public override object? ValueOf(T entity) => get(entity);

    public override string? ProblemOf(T entity)
    {
        var value = get(entity);
        return double.IsNaN(value) || value < Min || value > Max
            ? $"must be {Range}; {value.ToString(CultureInfo.InvariantCulture)} is not"
            : null;
    }

    public override bool Same(T a, T b) => get(a).Equals(get(b));

    public override T Read(T entity, JsonElement value, out string? problem)
    {
        problem = null;
        if (value.ValueKind is JsonValueKind.Null or JsonValueKind.Undefined)
        {
            return entity;
        }

        if (value.ValueKind == JsonValueKind.Number && value.TryGetDouble(out var number) && double.IsFinite(number))
        {
            return set(entity, number);
        }

        problem = $"must be a number {Range}";
        return entity;
    }

    public override void Write(T entity, IDictionary<string, string?> keys) => keys[Key] = store(get(entity));

    public override T CopyFrom(T entity, T from) => set(entity, get(from));
}

/// <summary>On or off.</summary>
public sealed class BooleanField<T>(string key, string jsonName, string label, Func<T, bool> get, Func<T, bool, T> set)
    : EntityField<T>(key, jsonName, label, FieldKind.Boolean)
    where T : class
{


    public override object? ValueOf(T entity) => get(entity);

    public override string? ProblemOf(T entity) => null;

    public override bool Same(T a, T b) => get(a) == get(b);

    public override T Read(T entity, JsonElement value, out string? problem)
    {
        problem = null;
        switch (value.ValueKind)
        {
            case JsonValueKind.Null or JsonValueKind.Undefined:
                return entity;
            case JsonValueKind.True or JsonValueKind.False:
                return set(entity, value.GetBoolean());
            default:
                problem = "must be true or false";
                return entity;
        }
    }

    public override void Write(T entity, IDictionary<string, string?> keys) => keys[Key] = get(entity) ? "true" : "false";

    public override T CopyFrom(T entity, T from) => set(entity, get(from));
}

/// <summary>One of an enum's named values (by name, without case).</summary>
public sealed class ChoiceField<T, TChoice>(string key, string jsonName, string label, Func<T, TChoice> get, Func<T, TChoice, T> set)
    : EntityField<T>(key, jsonName, label, FieldKind.Choice)
    where T : class
    where TChoice : struct, Enum
{
    private static readonly string[] Names = Enum.GetNames<TChoice>();


    public override IReadOnlyList<string> Choices => Names;


    public override object? ValueOf(T entity) => get(entity).ToString();

    public override string? ProblemOf(T entity) => Enum.IsDefined(get(entity)) ? null : MustBeOne();

    public override bool Same(T a, T b) => EqualityComparer<TChoice>.Default.Equals(get(a), get(b));

    public override T Read(T entity, JsonElement value, out string? problem)
    {
        problem = null;
        if (value.ValueKind is JsonValueKind.Null or JsonValueKind.Undefined)
        {
            return entity;
        }

        // By name only: Enum.TryParse would also take "7" or "1, 2".
        var name = value.ValueKind == JsonValueKind.String ? value.GetString()!.Trim() : null;
        var match = Names.FirstOrDefault(n => n.Equals(name, StringComparison.OrdinalIgnoreCase));
        if (match is null)
        {
            problem = MustBeOne();
            return entity;
        }

        return set(entity, Enum.Parse<TChoice>(match));
    }

    public override void Write(T entity, IDictionary<string, string?> keys) => keys[Key] = get(entity).ToString();

    public override T CopyFrom(T entity, T from) => set(entity, get(from));

    private static string MustBeOne() => "must be " + (Names.Length <= 2 ? string.Join(" or ", Names) : string.Join(", ", Names[..^1]) + " or " + Names[^1]);
}

/// <summary>Short texts, blank and repeated ones (without case) dropped; stored as <c>Key:0</c>, <c>Key:1</c>, ….</summary>
public sealed class ListField<T>(string key, string jsonName, string label, Func<T, IReadOnlyList<string>> get, Func<T, IReadOnlyList<string>, T> set)
    : EntityField<T>(key, jsonName, label, FieldKind.List)
    where T : class
{

    public override object? ValueOf(T entity) => Items(get(entity));

    public override string? ProblemOf(T entity)
    {
        foreach (var item in Items(get(entity)))
        {
            if (TextProblem(item) is { } problem)
            {
                return $"'{item}' {problem}";
            }
        }

        return Required && Items(get(entity)).Length == 0 ? "is required" : null;
    }

    public override bool Same(T a, T b) => Items(get(a)).SequenceEqual(Items(get(b)), StringComparer.OrdinalIgnoreCase);

    public override T Read(T entity, JsonElement value, out string? problem)
    {
        problem = null;
        switch (value.ValueKind)
        {
            case JsonValueKind.Null or JsonValueKind.Undefined:
                return set(entity, []);
            case JsonValueKind.Array when value.EnumerateArray().All(static v => v.ValueKind is JsonValueKind.String or JsonValueKind.Null):
                return set(entity, Items(value.EnumerateArray().Select(static v => v.GetString() ?? "")));
            default:
                problem = "must be a list of texts";
                return entity;
        }
    }

    public override void Write(T entity, IDictionary<string, string?> keys)
    {
        // A shorter list must not leave the old entries behind.
        foreach (var stale in keys.Keys.Where(k => k.StartsWith(Key + ":", StringComparison.OrdinalIgnoreCase)).ToList())
        {
            keys.Remove(stale);
        }

        var items = Items(get(entity));
        for (var i = 0; i < items.Length; i++)
        {
            keys[$"{Key}:{i.ToString(CultureInfo.InvariantCulture)}"] = items[i];
        }
    }

    public override T CopyFrom(T entity, T from) => set(entity, get(from));

    private static string[] Items(IEnumerable<string> values) =>
        [.. values.Select(static v => v?.Trim() ?? "").Where(static v => v.Length > 0).Distinct(StringComparer.OrdinalIgnoreCase)];
}

/// <summary>
/// A byte count or none (null), within <see cref="EntityField.Min"/> and <see cref="EntityField.Max"/>:
/// a number of bytes in JSON, or a size as people type it ("1.5 GiB", <see cref="ByteSize"/>).
/// </summary>
public sealed class BytesField<T>(string key, string jsonName, string label, Func<T, long?> get, Func<T, long?, T> set)
    : EntityField<T>(key, jsonName, label, FieldKind.Bytes)
    where T : class
{
    public override object? ValueOf(T entity) => get(entity);

    public override string? ProblemOf(T entity)
    {
        if (get(entity) is not { } value)
        {
            return Required ? "is required" : null;
        }

        if (value < Min || value > Max)
        {
            var range = Max is { } max
                ? $"between {ByteSize.Format((long)(Min ?? 0))} and {ByteSize.Format((long)max)}"
                : $"at least {ByteSize.Format((long)(Min ?? 0))}";
            return $"must be {range}{(Required ? "" : ", or empty for none")}; {value.ToString("N0", CultureInfo.InvariantCulture)} bytes is not";
        }

        return null;
    }

    public override bool Same(T a, T b) => get(a) == get(b);

    public override T Read(T entity, JsonElement value, out string? problem)
    {
        problem = null;
        switch (value.ValueKind)
        {
            case JsonValueKind.Null or JsonValueKind.Undefined:
                return set(entity, null);
            case JsonValueKind.Number when value.TryGetInt64(out var bytes):
                return set(entity, bytes);
            case JsonValueKind.String when string.IsNullOrWhiteSpace(value.GetString()):
                return set(entity, null);
            case JsonValueKind.String:
                if (ByteSize.TryParse(value.GetString()!, out var parsed, out var error))
                {
                    return set(entity, parsed);
                }

                problem = "must be a size: " + error;
                return entity;
            default:
                problem = "must be a number of bytes or a size such as 1.5 GiB";
                return entity;
        }
    }

    public override void Write(T entity, IDictionary<string, string?> keys)
    {
        if (get(entity) is { } value)
        {
            keys[Key] = value.ToString(CultureInfo.InvariantCulture);
        }
        else
        {
            keys.Remove(Key);
        }
    }

    public override T CopyFrom(T entity, T from) => set(entity, get(from));
}
