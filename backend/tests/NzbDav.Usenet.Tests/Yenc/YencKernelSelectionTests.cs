using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;
using NzbDav.Usenet.Yenc;

namespace NzbDav.Usenet.Tests.Yenc;

public sealed class YencKernelSelectionTests
{
    [Fact]
    public void Default_decoder_uses_the_widest_kernel_the_cpu_supports()
    {
        var expected = Avx512Vbmi2.IsSupported && Avx512BW.IsSupported && Vector512.IsHardwareAccelerated ? YencKernel.Vector512
            : Avx2.IsSupported ? YencKernel.Vector256
            : Ssse3.IsSupported ? YencKernel.Vector128
            : YencKernel.Scalar;
        Assert.Equal(expected, new YencDecoder().Kernel);
    }
}
