using NzbDav.Archives.Par2;

namespace NzbDav.Archives.Tests.Par2;

public sealed class Galois16Tests
{
    [Fact]
    public void Two_generates_the_whole_multiplicative_group()
    {
        var seen = new bool[65536];
        for (var power = 0; power < Galois16.Order; power++)
        {
            var value = Galois16.Exp(power);
            Assert.False(seen[value], "2^" + power + " repeats an earlier power");
            seen[value] = true;
        }

        Assert.False(seen[0]);
    }

    [Fact]
    public void Every_non_zero_element_times_its_inverse_is_one()
    {
        for (var a = 1; a <= 65535; a++)
        {
            Assert.Equal(1, Galois16.Multiply((ushort)a, Galois16.Inverse((ushort)a)));
        }
    }

    [Fact]
    public void Multiplication_matches_shift_and_reduce_by_the_par2_polynomial()
    {
        var random = new Random(7);
        for (var i = 0; i < 20_000; i++)
        {
            var a = (ushort)random.Next(65536);
            var b = (ushort)random.Next(65536);
            Assert.Equal(CarrylessProduct(a, b), Galois16.Multiply(a, b));
        }
    }

    [Fact]
    public void Input_constants_are_the_powers_of_two_with_exponents_coprime_to_65535()
    {
        // Exponents 1, 2, 4, 7, 8, 11, 13, 14, 16, 19 (3, 5, 6, 9, 10, 12, 15, 17, 18 share a factor with 65535).
        int[] exponents = [1, 2, 4, 7, 8, 11, 13, 14, 16, 19];
        Assert.Equal(exponents.Select(e => Galois16.Exp(e)), Galois16.InputConstants(10));
        Assert.Equal(32768, Galois16.InputConstants(32768).Distinct().Count());
        Assert.Throws<ArgumentOutOfRangeException>(() => Galois16.InputConstants(32769));
    }

    [Theory]
    [InlineData("Scalar")]
    [InlineData("Ssse3")]
    [InlineData("Avx2")]
    [InlineData("Avx512")]
    public void Region_multiply_add_matches_word_by_word_products_at_every_length(string level)
    {
        var acceleration = Enum.Parse<Galois16Region.Acceleration>(level);
        var random = new Random(11);
        foreach (var length in new[] { 0, 2, 30, 62, 64, 66, 126, 128, 130, 4096, 65536 + 34 })
        {
            foreach (var factor in new ushort[] { 0, 1, 2, 0x8000, 0xFFFF, (ushort)random.Next(65536) })
            {
                var source = new byte[length];
                random.NextBytes(source);
                var destination = new byte[length + 6];
                random.NextBytes(destination);
                var expected = destination.ToArray();
                for (var i = 0; i < length; i += 2)
                {
                    var product = Galois16.Multiply(factor, (ushort)(source[i] | (source[i + 1] << 8)));
                    expected[i] ^= (byte)product;
                    expected[i + 1] ^= (byte)(product >> 8);
                }

                new Galois16Region(factor).MultiplyAdd(source, destination, acceleration);
                Assert.Equal(expected, destination);
            }
        }
    }

    [Fact]
    public void Region_refuses_an_odd_length_or_a_short_destination()
    {
        var region = new Galois16Region(3);
        Assert.Throws<ArgumentException>(() => region.MultiplyAdd(new byte[3], new byte[4]));
        Assert.Throws<ArgumentException>(() => region.MultiplyAdd(new byte[4], new byte[2]));
    }

    [Fact]
    public void An_inverted_matrix_times_the_matrix_is_the_identity()
    {
        var random = new Random(3);
        const int Size = 40;
        var constants = Galois16.InputConstants(Size);
        var matrix = new ushort[Size * Size];
        for (var row = 0; row < Size; row++)
        {
            var exponent = (uint)random.Next(200);
            for (var column = 0; column < Size; column++)
            {
                matrix[(row * Size) + column] = Galois16.Power(constants[column], exponent + (uint)row * 1000);
            }
        }

        var inverse = Galois16Matrix.Invert(matrix, Size, out var singular);
        Assert.NotNull(inverse);
        Assert.Equal(-1, singular);
        for (var row = 0; row < Size; row++)
        {
            for (var column = 0; column < Size; column++)
            {
                ushort sum = 0;
                for (var i = 0; i < Size; i++)
                {
                    sum ^= Galois16.Multiply(matrix[(row * Size) + i], inverse[(i * Size) + column]);
                }

                Assert.Equal(row == column ? 1 : 0, sum);
            }
        }
    }

    [Fact]
    public void A_singular_matrix_is_named_not_inverted()
    {
        // Row 2 is row 0 + row 1.
        ushort[] matrix = [1, 2, 3, 4, 5, 6, 5, 7, 5];
        Assert.Null(Galois16Matrix.Invert(matrix, 3, out var singular));
        Assert.InRange(singular, 0, 2);
    }

    private static ushort CarrylessProduct(ushort a, ushort b)
    {
        var product = 0;
        for (var bit = 0; bit < 16; bit++)
        {
            if ((b & (1 << bit)) != 0)
            {
                product ^= a << bit;
            }
        }

        for (var bit = 31; bit >= 16; bit--)
        {
            if ((product & (1 << bit)) != 0)
            {
                product ^= Galois16.Polynomial << (bit - 16);
            }
        }

        return (ushort)product;
    }
}
