namespace NzbDav.Archives.Par2;

/// <summary>Square matrices over GF(2^16), row-major: the one inversion a repair needs.</summary>
internal static class Galois16Matrix
{
    /// <summary>
    /// The inverse of the <paramref name="size"/>-square <paramref name="matrix"/> by Gauss-Jordan
    /// elimination, or null when it is singular (PAR2's matrix can be, for some choices of recovery
    /// slices); <paramref name="singularRow"/> then names a row that depends on the others.
    /// </summary>
    public static ushort[]? Invert(ReadOnlySpan<ushort> matrix, int size, out int singularRow)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(size);
        if (matrix.Length != size * size)
        {
            throw new ArgumentException("A " + size + "-square matrix has " + (size * size) + " elements, got " + matrix.Length + ".", nameof(matrix));
        }

        var width = 2 * size;
        var work = new ushort[size * width];
        for (var row = 0; row < size; row++)
        {
            matrix.Slice(row * size, size).CopyTo(work.AsSpan(row * width, size));
            work[(row * width) + size + row] = 1;
        }

        // Which original row each working row holds, so a singular pivot can be named.
        var origin = new int[size];
        for (var row = 0; row < size; row++)
        {
            origin[row] = row;
        }

        for (var column = 0; column < size; column++)
        {
            var pivot = column;
            while (pivot < size && work[(pivot * width) + column] == 0)
            {
                pivot++;
            }

            if (pivot == size)
            {
                singularRow = origin[column];
                return null;
            }

            if (pivot != column)
            {
                var a = work.AsSpan(column * width, width);
                var b = work.AsSpan(pivot * width, width);
                for (var i = 0; i < width; i++)
                {
                    (a[i], b[i]) = (b[i], a[i]);
                }

                (origin[column], origin[pivot]) = (origin[pivot], origin[column]);
            }

            var pivotRow = work.AsSpan(column * width, width);
            var scale = Galois16.Inverse(pivotRow[column]);
            if (scale != 1)
            {
                for (var i = column; i < width; i++)
                {
                    pivotRow[i] = Galois16.Multiply(pivotRow[i], scale);
                }
            }

            for (var row = 0; row < size; row++)
            {
                var factor = work[(row * width) + column];
                if (row == column || factor == 0)
                {
                    continue;
                }

                var target = work.AsSpan(row * width, width);
                var logFactor = Galois16.Log(factor);
                for (var i = column; i < width; i++)
                {
                    var value = pivotRow[i];
                    if (value != 0)
                    {
                        target[i] ^= Galois16.Exp(logFactor + Galois16.Log(value));
                    }
                }
            }
        }

        var inverse = new ushort[size * size];
        for (var row = 0; row < size; row++)
        {
            work.AsSpan((row * width) + size, size).CopyTo(inverse.AsSpan(row * size, size));
        }

        singularRow = -1;
        return inverse;
    }
}
