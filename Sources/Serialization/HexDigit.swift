/// Hexadecimal digits as text writes them: RFC 3986's `HEXDIG` (percent-encoding), RFC 9112's
/// chunk sizes and the OCI digest's hex, in either case.
public enum HexDigit {
    /// The value of one hex digit, 0 to 15: `0`-`9`, `a`-`f` or `A`-`F`; `nil` for any other byte.
    ///
    /// - Parameter byte: One byte of text.
    public static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
