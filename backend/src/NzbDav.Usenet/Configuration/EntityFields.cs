using System.Text.Json;

namespace NzbDav.Usenet.Configuration;

/// <summary>A field whose value is refused: <see cref="Problem"/> is a phrase that follows the field's name.</summary>
public sealed record FieldProblem(EntityField Field, string Problem)
{
    /// <summary>As the web UI says it: "Port must be between 1 and 65535; 0 is not."</summary>
    public string Message => $"{Field.Label} {Problem}.";

    /// <summary>As a configuration error says it, naming the key and the entity: "Port of provider 'news' must be …".</summary>
    public string MessageFor(string entity) => $"{Field.Key} of {entity} {Problem}.";
}

/// <summary>
/// The declared fields of one kind of entity, in the order the UI shows them. Everything that names
/// a field goes through here: storing an entity (<see cref="Write"/>), reading the UI's request
/// (<see cref="Read"/>), validating (<see cref="FirstProblem"/>), the UI's answer
/// (<see cref="View"/>), and whether a change re-points the account (<see cref="SameAccount"/>).
/// </summary>
public sealed class EntityFields<T>
    where T : class
{
    private readonly Func<T> _create;

    /// <param name="create">A new entity with every field at its default.</param>
    /// <param name="fields">The fields, in the UI's order; the first is the entity's name.</param>
    public EntityFields(Func<T> create, params EntityField<T>[] fields)
    {
        ArgumentNullException.ThrowIfNull(create);
        ArgumentNullException.ThrowIfNull(fields);
        if (fields.Select(static f => f.JsonName).Distinct(StringComparer.OrdinalIgnoreCase).Count() != fields.Length)
        {
            throw new ArgumentException("Field names must be unique.", nameof(fields));
        }

        _create = create;
        All = fields;
    }

    public IReadOnlyList<EntityField<T>> All { get; }

    /// <summary>An entity with every field at its default.</summary>
    public T New() => _create();

    /// <summary>What a new entity has in <paramref name="field"/>, as the UI's JSON carries it (null for a secret).</summary>
    public object? DefaultOf(EntityField<T> field)
    {
        ArgumentNullException.ThrowIfNull(field);
        return field.Kind == FieldKind.Secret ? null : field.ValueOf(New());
    }

    public EntityField<T>? Find(string jsonName) =>
        All.FirstOrDefault(f => f.JsonName.Equals(jsonName, StringComparison.OrdinalIgnoreCase));

    /// <summary>The first field whose value is refused, in the UI's order; null when every one is acceptable.</summary>
    public FieldProblem? FirstProblem(T entity)
    {
        ArgumentNullException.ThrowIfNull(entity);
        foreach (var field in All)
        {
            if (field.ProblemOf(entity) is { } problem)
            {
                return new FieldProblem(field, problem);
            }
        }

        return null;
    }

    /// <summary>Whether <paramref name="a"/> and <paramref name="b"/> reach the same account: every <see cref="EntityField.Account"/> field equal.</summary>
    public bool SameAccount(T a, T b)
    {
        ArgumentNullException.ThrowIfNull(a);
        ArgumentNullException.ThrowIfNull(b);
        return All.Where(static f => f.Account).All(f => f.Same(a, b));
    }

    /// <summary>
    /// The entity a UI request describes, on top of <paramref name="basis"/> (defaults, and the
    /// stored secrets): a field the request leaves out or sends as null keeps the basis's value;
    /// then every field is checked. The first field that cannot be read or is refused is the answer's problem.
    /// </summary>
    public (T Entity, FieldProblem? Problem) Read(IReadOnlyDictionary<string, JsonElement>? request, T basis)
    {
        ArgumentNullException.ThrowIfNull(basis);
        var entity = basis;
        foreach (var field in All)
        {
            if (request is null || !TryGet(request, field.JsonName, out var value))
            {
                continue;
            }

            entity = field.Read(entity, value, out var unreadable);
            if (unreadable is not null)
            {
                return (entity, new FieldProblem(field, unreadable));
            }
        }

        return (entity, FirstProblem(entity));
    }

    /// <summary><paramref name="entity"/> with the secrets of <paramref name="stored"/> (the UI never has them to send back).</summary>
    public T WithSecretsOf(T entity, T stored)
    {
        ArgumentNullException.ThrowIfNull(entity);
        ArgumentNullException.ThrowIfNull(stored);
        foreach (var field in All.Where(static f => f.Kind == FieldKind.Secret))
        {
            entity = field.CopyFrom(entity, stored);
        }

        return entity;
    }

    /// <summary>Writes every field into a stored entity's keys; keys no field owns are left as they are.</summary>
    public void Write(T entity, IDictionary<string, string?> keys)
    {
        ArgumentNullException.ThrowIfNull(entity);
        ArgumentNullException.ThrowIfNull(keys);
        foreach (var field in All)
        {
            field.Write(entity, keys);
        }
    }

    /// <summary>The fields as the UI's answer carries them: each by its JSON name, a secret as <see cref="EntityField.PresenceName"/>.</summary>
    public IEnumerable<KeyValuePair<string, object?>> View(T entity)
    {
        ArgumentNullException.ThrowIfNull(entity);
        foreach (var field in All)
        {
            yield return new(field.Kind == FieldKind.Secret ? field.PresenceName : field.JsonName, field.ValueOf(entity));
        }
    }

    private static bool TryGet(IReadOnlyDictionary<string, JsonElement> request, string name, out JsonElement value)
    {
        if (request.TryGetValue(name, out value))
        {
            return true;
        }

        foreach (var (key, found) in request)
        {
            if (key.Equals(name, StringComparison.OrdinalIgnoreCase))
            {
                value = found;
                return true;
            }
        }

        return false;
    }
}
