using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;
using NzbDav.Server.Configuration;
using NzbDav.Server.Health.Arr;
using NzbDav.Usenet.Configuration;
using NzbDav.Usenet.Providers;

namespace NzbDav.Server.WebUi;

/// <summary>
/// A field of a provider or a Sonarr/Radarr instance as the UI's form draws and checks it; made from
/// the one declaration (<see cref="ProviderFields"/>, <see cref="ArrFields"/>), in its order.
/// <see cref="Name"/> is the property in the entity and its request; <see cref="Account"/> fields
/// re-point the account, so a save that changes one tests first.
/// </summary>
public sealed record UiField(
    string Name, string Label, string Kind, bool Required, double? Min, double? Max, int? MaxLength, string? Forbidden,
    IReadOnlyList<string>? Choices, JsonNode? Default, string? Help, string? Placeholder, bool Account)
{
    internal static IReadOnlyList<UiField> Of<T>(EntityFields<T> fields)
        where T : class =>
        [.. fields.All.Select(f => new UiField(
            f.JsonName, f.Label, f.Kind.ToString(), f.Required, f.Min, f.Max, f.MaxLength, f.Forbidden, f.Choices,
            JsonSerializer.SerializeToNode(fields.DefaultOf(f)), f.Help, f.Placeholder, f.Account))];
}

/// <summary>
/// A configured entity as the UI lists it: its declared fields, each under its JSON name (a secret
/// only as whether one is set), whether the UI may change it (<see cref="Editable"/>: added there),
/// and the layer it comes from.
/// </summary>
public abstract class UiEntity
{
    [JsonExtensionData]
    public Dictionary<string, object?> Fields { get; init; } = [];

    public required bool Editable { get; init; }

    public required string Source { get; init; }
}

/// <summary>A request to add, change or test an entity: its declared fields by JSON name; <see cref="Force"/> saves even when the test fails.</summary>
public abstract class UiEntityRequest
{
    [JsonExtensionData]
    public Dictionary<string, JsonElement>? Fields { get; init; }

    public bool Force { get; init; }

    /// <summary>The saved entity a test stands for, whose stored secrets it may use.</summary>
    public string? OriginalName { get; init; }
}

/// <summary>
/// A provider with the fields of <see cref="ProviderFields"/> (which also describes them in the API's
/// document); the password is never sent, only <c>hasPassword</c>.
/// </summary>
public sealed class UiProvider : UiEntity
{
    internal static UiProvider Of(ProviderView view) =>
        new() { Fields = new(ProviderFields.All.View(view.Options)), Editable = view.Editable, Source = view.Source };
}

/// <summary>
/// A provider to add, change or test. A null (or absent) password keeps the stored one (for a test,
/// the one of <see cref="UiEntityRequest.OriginalName"/>); an empty one removes it.
/// </summary>
public sealed class UiProviderRequest : UiEntityRequest;

/// <summary>A Sonarr or Radarr instance with the fields of <see cref="ArrFields"/>; the API key is never sent, only <c>hasApiKey</c>.</summary>
public sealed class UiArrInstance : UiEntity
{
    internal static UiArrInstance Of(ArrInstanceView view) =>
        new() { Fields = new(ArrFields.All.View(view.Options)), Editable = view.Editable, Source = view.Source };
}

/// <summary>
/// A Sonarr or Radarr instance to add, change or test. A null or empty API key keeps the stored one
/// (for a test, the one of <see cref="UiEntityRequest.OriginalName"/>, or of the name); empty
/// categories mean any category.
/// </summary>
public sealed class UiArrRequest : UiEntityRequest;

/// <summary>
/// Writes the declared fields into the API document's schemas of the entities and their requests,
/// so the frontend's generated types know every field with its type (and a choice's values).
/// </summary>
internal static class UiEntitySchemas
{
    public static Task TransformAsync(OpenApiSchema schema, OpenApiSchemaTransformerContext context, CancellationToken cancellationToken)
    {
        var type = context.JsonTypeInfo.Type;
        if (type == typeof(UiProvider))
        {
            Describe(schema, ProviderFields.All, request: false);
        }
        else if (type == typeof(UiProviderRequest))
        {
            Describe(schema, ProviderFields.All, request: true);
        }
        else if (type == typeof(UiArrInstance))
        {
            Describe(schema, ArrFields.All, request: false);
        }
        else if (type == typeof(UiArrRequest))
        {
            Describe(schema, ArrFields.All, request: true);
        }
        else if (type == typeof(UiField) && schema.Properties is { } properties)
        {
            // A new entity's value: a text, number, true/false or list of texts, as the field's kind says.
            properties["default"] = new OpenApiSchema
            {
                Type = JsonSchemaType.String | JsonSchemaType.Number | JsonSchemaType.Boolean | JsonSchemaType.Array | JsonSchemaType.Null,
                Items = new OpenApiSchema { Type = JsonSchemaType.String },
            };
        }

        return Task.CompletedTask;
    }

    private static void Describe<T>(OpenApiSchema schema, EntityFields<T> fields, bool request)
        where T : class
    {
        var properties = new Dictionary<string, IOpenApiSchema>();
        var required = new HashSet<string>();
        foreach (var field in fields.All)
        {
            var name = !request && field.Kind == FieldKind.Secret ? field.PresenceName : field.JsonName;
            properties[name] = request ? RequestSchema(field) : AnswerSchema(field);
            if (!request)
                required.Add(name);
        }

        // The entity's own properties (editable, source; force, originalName) after its fields.
        foreach (var (name, property) in schema.Properties ?? new Dictionary<string, IOpenApiSchema>())
        {
            if (!properties.ContainsKey(name) && !name.Equals("fields", StringComparison.OrdinalIgnoreCase))
                properties[name] = property;
        }

        foreach (var name in schema.Required ?? new HashSet<string>())
        {
            if (properties.ContainsKey(name))
                required.Add(name);
        }

        schema.Properties = properties;
        schema.Required = required;
        schema.AdditionalProperties = null;
        schema.AdditionalPropertiesAllowed = request;
    }

    private static OpenApiSchema AnswerSchema(EntityField field) => field.Kind switch
    {
        FieldKind.Secret or FieldKind.Boolean => new OpenApiSchema { Type = JsonSchemaType.Boolean },
        FieldKind.Integer => new OpenApiSchema { Type = JsonSchemaType.Integer, Format = "int32" },
        FieldKind.Number => new OpenApiSchema { Type = JsonSchemaType.Number, Format = "double" },
        FieldKind.Bytes => new OpenApiSchema { Type = JsonSchemaType.Integer | JsonSchemaType.Null, Format = "int64" },
        FieldKind.Choice => Choice(field, JsonSchemaType.String),
        FieldKind.List => new OpenApiSchema { Type = JsonSchemaType.Array, Items = new OpenApiSchema { Type = JsonSchemaType.String } },
        _ => new OpenApiSchema { Type = field.Required ? JsonSchemaType.String : JsonSchemaType.String | JsonSchemaType.Null },
    };

    private static OpenApiSchema RequestSchema(EntityField field) => field.Kind switch
    {
        FieldKind.Boolean => new OpenApiSchema { Type = JsonSchemaType.Boolean | JsonSchemaType.Null },
        FieldKind.Integer => new OpenApiSchema { Type = JsonSchemaType.Integer | JsonSchemaType.Null, Format = "int32" },
        FieldKind.Number => new OpenApiSchema { Type = JsonSchemaType.Number | JsonSchemaType.Null, Format = "double" },
        FieldKind.Bytes => new OpenApiSchema { Type = JsonSchemaType.Integer | JsonSchemaType.Null, Format = "int64" },
        FieldKind.Choice => Choice(field, JsonSchemaType.String | JsonSchemaType.Null),
        FieldKind.List => new OpenApiSchema { Type = JsonSchemaType.Array | JsonSchemaType.Null, Items = new OpenApiSchema { Type = JsonSchemaType.String } },
        _ => new OpenApiSchema { Type = JsonSchemaType.String | JsonSchemaType.Null },
    };

    private static OpenApiSchema Choice(EntityField field, JsonSchemaType type) =>
        new() { Type = type, Enum = [.. field.Choices!.Select(static c => (JsonNode)JsonValue.Create(c))] };
}
