using System.Buffers.Binary;

namespace NzbDav.Server.Tests.Deployment;

/// <summary>The target machine written in a PE (.NET assembly) or ELF (native library, apphost) header.</summary>
internal static class BinaryHeaders
{
    /// <summary>
    /// COFF machine of a ReadyToRun assembly compiled for Linux: the architecture's value XOR'd with
    /// 0x7B79 (an IL-only assembly says 0x014C, i386, whatever it runs on).
    /// </summary>
    public const ushort ReadyToRunLinuxX64 = 0x8664 ^ 0x7B79;

    public const ushort ReadyToRunLinuxArm64 = 0xAA64 ^ 0x7B79;

    public const ushort ElfX64 = 0x3E;

    public const ushort ElfArm64 = 0xB7;

    /// <summary>The COFF header's Machine field of a PE file.</summary>
    public static ushort PeMachine(string path)
    {
        var bytes = File.ReadAllBytes(path);
        Assert.True(bytes.Length > 0x40 && bytes[0] == 'M' && bytes[1] == 'Z', $"{path} is not a PE file");
        var pe = BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan(0x3C));
        Assert.True(bytes.AsSpan(pe, 4).SequenceEqual("PE\0\0"u8), $"{path} has no PE signature");
        return BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(pe + 4));
    }

    /// <summary>The e_machine field of a little-endian ELF file.</summary>
    public static ushort ElfMachine(string path)
    {
        var header = new byte[20];
        using (var file = File.OpenRead(path))
            file.ReadExactly(header);
        Assert.True(header.AsSpan(0, 4).SequenceEqual("\u007FELF"u8), $"{path} is not an ELF file");
        return BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(18));
    }
}
