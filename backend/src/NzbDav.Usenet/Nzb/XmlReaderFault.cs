using System.Diagnostics;
using System.Xml;

namespace NzbDav.Usenet.Nzb;

/// <summary>
/// Tells apart an <see cref="ArgumentException"/> that the runtime's XML reader throws from its own
/// buffer handling on malformed input (found by fuzzing: an XML declaration whose version string holds
/// non-ASCII bytes makes XmlTextReaderImpl.SwitchEncoding pass a negative count to Buffer.BlockCopy)
/// from one our code throws. Such input is malformed XML and must be rejected as such, not end in a 500.
/// </summary>
public static class XmlReaderFault
{
    private static readonly System.Reflection.Assembly CoreLibrary = typeof(object).Assembly;
    private static readonly System.Reflection.Assembly XmlLibrary = typeof(XmlReader).Assembly;

    /// <summary>True when <paramref name="exception"/> is an argument error raised inside System.Xml (below any of our frames).</summary>
    public static bool IsReaderFault(Exception exception)
    {
        ArgumentNullException.ThrowIfNull(exception);
        if (exception is not ArgumentException)
        {
            return false;
        }
        // The first frame outside CoreLib is the code that made the failing call.
        foreach (var frame in new StackTrace(exception).GetFrames())
        {
            var assembly = frame.GetMethod()?.DeclaringType?.Assembly;
            if (assembly is null || assembly == CoreLibrary)
            {
                continue;
            }
            return assembly == XmlLibrary;
        }
        return false;
    }
}
