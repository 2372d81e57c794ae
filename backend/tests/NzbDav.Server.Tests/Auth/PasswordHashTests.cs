using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using NzbDav.Server.WebDav;
using NzbDav.Server.Auth;

namespace NzbDav.Server.Tests.Auth;

public sealed class PasswordHashTests
{
    [Fact]
    public void Stored_form_round_trips_and_verifies_only_the_right_password()
    {
        var hash = PasswordHash.Create("s3cret pass");
        var stored = hash.ToString();

        Assert.StartsWith("pbkdf2-sha256$210000$", stored);
        Assert.DoesNotContain("s3cret", stored);
        var parsed = PasswordHash.Parse(stored)!;
        Assert.True(parsed.Verify("s3cret pass"));
        Assert.False(parsed.Verify("s3cret pasS"));
        Assert.False(parsed.Verify(""));
        Assert.NotEqual(stored, PasswordHash.Create("s3cret pass").ToString());
    }

    [Theory]
    [InlineData("")]
    [InlineData("plaintext")]
    [InlineData("pbkdf2-sha256$1000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")]
    [InlineData("pbkdf2-sha256$210000$!!$AAAA")]
    [InlineData("md5$210000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")]
    public void Foreign_or_weak_stored_forms_are_refused(string stored)
    {
        Assert.Null(PasswordHash.Parse(stored));
    }

    [Fact]
    public void Credentials_check_user_and_password_and_remember_good_headers_boundedly()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection().Build();
        using var services = new ServiceCollection().AddOptions().Configure<WebDavOptions>(configuration).BuildServiceProvider();
        var credentials = new WebDavCredentials(services.GetRequiredService<IOptionsMonitor<WebDavOptions>>());
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw"u8)));
        Set(configuration, "PasswordHash", PasswordHash.Create("pw").ToString());

        Assert.True(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw"u8)));
        Assert.True(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw"u8)));
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("Admin:pw"u8)));
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw "u8)));
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("adminpw"u8)));
        Assert.False(credentials.Verify("Basic ***"));
        Assert.False(credentials.Verify("Bearer " + Convert.ToBase64String("admin:pw"u8)));
        Assert.False(credentials.Verify(null));

        // A new password in the configuration forgets every remembered header at once.
        Set(configuration, "PasswordHash", PasswordHash.Create("other").ToString());
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw"u8)));
        Assert.True(credentials.Verify("Basic " + Convert.ToBase64String("admin:other"u8)));

        // A new name too; a configured clear password wins over the stored hash.
        Set(configuration, "User", "alice");
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("admin:other"u8)));
        Assert.True(credentials.Verify("Basic " + Convert.ToBase64String("alice:other"u8)));
        Set(configuration, "Password", "clear-text");
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("alice:other"u8)));
        Assert.True(credentials.Verify("Basic " + Convert.ToBase64String("alice:clear-text"u8)));
    }

    private static void Set(IConfigurationRoot configuration, string key, string value)
    {
        configuration[key] = value;
        configuration.Reload();
    }
}
