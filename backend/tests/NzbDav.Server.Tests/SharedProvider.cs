using NzbDav.Testing;

// One mock provider for every test here that only needs a provider holding its articles
// (MockProviderFixture says what a test must not do with it); the others start their own.
[assembly: AssemblyFixture(typeof(MockProviderFixture))]
