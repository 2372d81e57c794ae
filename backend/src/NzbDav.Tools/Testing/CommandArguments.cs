using System.Globalization;

namespace NzbDav.Tools.Testing;

/// <summary>
/// The argument forms every test command accepts: <c>--name=value</c> or <c>--name value</c>, flags
/// without a value, and <c>--Section:Key=value</c> overrides collected for the server's configuration.
/// A command walks the arguments with <see cref="MoveNext"/> and reads the current one's value in the
/// type it wants; every mistake is a <see cref="FullNzbTesterUsageException"/> naming the argument.
/// </summary>
internal sealed class CommandArguments(IReadOnlyList<string> args)
{
    private readonly IReadOnlyList<string> _args = args ?? throw new ArgumentNullException(nameof(args));
    private readonly List<string> _configuration = [];
    private int _index = -1;
    private string? _inline;

    /// <summary>The current argument as given.</summary>
    public string Current { get; private set; } = "";

    /// <summary>The current argument's name (before any <c>=</c>).</summary>
    public string Name { get; private set; } = "";

    /// <summary>Whether the current argument is not an option (an NZB path, say).</summary>
    public bool IsPositional => !Current.StartsWith('-');

    /// <summary>The <c>--Section:Key=value</c> overrides met so far, each as <c>--Section:Key=value</c>.</summary>
    public IReadOnlyList<string> Configuration => _configuration;

    /// <summary>Moves to the next argument that is not a configuration override (those are collected).</summary>
    public bool MoveNext()
    {
        while (++_index < _args.Count)
        {
            Current = _args[_index] ?? throw new FullNzbTesterUsageException("An argument is null.");
            var equals = Current.IndexOf('=', StringComparison.Ordinal);
            Name = equals < 0 ? Current : Current[..equals];
            _inline = equals < 0 ? null : Current[(equals + 1)..];
            if (Name.StartsWith("--", StringComparison.Ordinal) && Name.Contains(':', StringComparison.Ordinal))
            {
                _configuration.Add(_inline is null ? $"{Name}={TakeNext()}" : Current);
                continue;
            }

            return true;
        }

        return false;
    }

    /// <summary>The current option's value: after its <c>=</c>, or the next argument.</summary>
    public string Value() => _inline ?? TakeNext();

    /// <summary>A flag: true, and an error if it was given a value.</summary>
    public bool Flag() =>
        _inline is null ? true : throw new FullNzbTesterUsageException($"{Name} takes no value (got '{_inline}').");

    public int Integer(int min, int max) => Integer(Value(), min, max);

    /// <summary>Whole numbers separated by commas, none twice (<paramref name="item"/> names one in the error).</summary>
    public List<int> Integers(int min, int max, string item)
    {
        var value = Value();
        var numbers = value.Split(',').Select(v => Integer(v.Trim(), min, max)).ToList();
        return numbers.Distinct().Count() == numbers.Count
            ? numbers
            : throw new FullNzbTesterUsageException($"{Name} lists a {item} twice: '{value}'.");
    }

    /// <summary>A fraction from 0 up to, not including, 1.</summary>
    public double Fraction()
    {
        var value = Value();
        return double.TryParse(value, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var parsed) && parsed is >= 0 and < 1
            ? parsed
            : throw new FullNzbTesterUsageException($"{Name} must be a fraction from 0 up to (not including) 1, like 0.01; got '{value}'.");
    }

    /// <summary>The full path of a file that exists.</summary>
    public string ExistingFile()
    {
        var value = Value();
        return File.Exists(value) ? Path.GetFullPath(value) : throw new FullNzbTesterUsageException($"{Name}: there is no file '{value}'.");
    }

    /// <summary>A path, made absolute (it need not exist yet).</summary>
    public string FullPath() => Path.GetFullPath(Value());

    public FullNzbTesterUsageException Unknown() => new($"Unknown argument '{Current}'.");

    private int Integer(string value, int min, int max) =>
        int.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) && parsed >= min && parsed <= max
            ? parsed
            : throw new FullNzbTesterUsageException($"{Name} must be a whole number from {min} to {max}; got '{value}'.");

    private string TakeNext() =>
        _index + 1 < _args.Count && _args[_index + 1] is { } next && !next.StartsWith("--", StringComparison.Ordinal)
            ? _args[++_index]
            : throw new FullNzbTesterUsageException($"{Name} needs a value.");
}
