using System.Runtime.CompilerServices;

// The tester's internals (verifier, runner) are tested directly.
[assembly: InternalsVisibleTo("NzbDav.Server.Tests")]
