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
        var credentials = new WebDavCredentials();
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw"u8)));
        credentials.Set("admin", PasswordHash.Create("pw"));

        Assert.True(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw"u8)));
        Assert.True(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw"u8)));
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("Admin:pw"u8)));
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw "u8)));
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("adminpw"u8)));
        Assert.False(credentials.Verify("Basic ***"));
        Assert.False(credentials.Verify("Bearer " + Convert.ToBase64String("admin:pw"u8)));
        Assert.False(credentials.Verify(null));

        // A new password forgets every remembered header.
        credentials.Set("admin", PasswordHash.Create("other"));
        Assert.False(credentials.Verify("Basic " + Convert.ToBase64String("admin:pw"u8)));
    }
}
