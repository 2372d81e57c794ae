using System.Text;

namespace NzbDav.Archives.Rar;

/// <summary>
/// RAR 2.9–4.x file names with flag 0x200: the name field holds an 8-bit name, a zero byte, then
/// a compact UTF-16 encoding. The encoded part starts with a high byte shared by many characters;
/// each following flag byte gives four 2-bit opcodes: 0 = low byte only, 1 = low byte plus the
/// shared high byte, 2 = a full 16-bit character, 3 = a run copied from the 8-bit name (with an
/// optional correction added to each byte and the shared high byte).
/// </summary>
internal static class Rar4UnicodeName
{
    private const int MaxNameLength = 4096;

    public static string Decode(ReadOnlySpan<byte> field)
    {
        var zero = field.IndexOf((byte)0);
        if (zero < 0)
        {
            return DecodeLegacy(field);
        }

        var plain = field[..zero];
        var encoded = field[(zero + 1)..];
        if (encoded.Length == 0)
        {
            return DecodeLegacy(plain);
        }

        var output = new StringBuilder(plain.Length);
        var position = 0;
        var high = encoded[position++];
        var flags = 0;
        var flagBits = 0;
        while (position < encoded.Length && output.Length < MaxNameLength)
        {
            if (flagBits == 0)
            {
                flags = encoded[position++];
                flagBits = 8;
                if (position >= encoded.Length)
                {
                    break;
                }
            }

            flagBits -= 2;
            switch ((flags >> flagBits) & 3)
            {
                case 0:
                    output.Append((char)encoded[position++]);
                    break;
                case 1:
                    output.Append((char)(encoded[position++] | (high << 8)));
                    break;
                case 2:
                    if (position + 1 >= encoded.Length)
                    {
                        return output.ToString();
                    }

                    output.Append((char)(encoded[position] | (encoded[position + 1] << 8)));
                    position += 2;
                    break;
                default:
                    var run = encoded[position++];
                    if ((run & 0x80) != 0)
                    {
                        if (position >= encoded.Length)
                        {
                            return output.ToString();
                        }

                        var correction = encoded[position++];
                        for (var count = (run & 0x7F) + 2; count > 0 && output.Length < plain.Length; count--)
                        {
                            output.Append((char)(((plain[output.Length] + correction) & 0xFF) | (high << 8)));
                        }
                    }
                    else
                    {
                        for (var count = run + 2; count > 0 && output.Length < plain.Length; count--)
                        {
                            output.Append((char)plain[output.Length]);
                        }
                    }

                    break;
            }
        }

        return output.ToString();
    }

    /// <summary>Names without a Unicode part: UTF-8 when valid (RAR on Unix), else Latin-1 (no code pages in invariant mode).</summary>
    public static string DecodeLegacy(ReadOnlySpan<byte> field)
    {
        var utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);
        try
        {
            return utf8.GetString(field);
        }
        catch (DecoderFallbackException)
        {
            return Encoding.Latin1.GetString(field);
        }
    }
}
