/// RFC 9110 section 5.6.2: `token = 1*tchar`, the syntax of methods, field names and
/// parameter names; and section 5.5's rule for what a field value may hold. The one home of
/// both for the probe's requests and the sanity server's parser.
public enum HTTPToken {
    /// `tchar` as a 256-entry table: the sanity server asks it for every byte of a request.
    @usableFromInline static let tokenTable: [Bool] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
        }
    }

    /// Whether a byte is a `tchar`: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
    @inlinable @inline(__always)
    public static func isTokenCharacter(_ byte: UInt8) -> Bool { tokenTable[Int(byte)] }

    /// Whether `text` is a non-empty token.
    public static func isToken(_ text: Substring) -> Bool { !text.isEmpty && text.utf8.allSatisfy(isTokenCharacter) }

    /// Whether a byte may be in a field value a server receives: `VCHAR`, `obs-text`, SP or HTAB
    /// (RFC 9110 section 5.5's grammar); the sanity server refuses a request with any other.
    @inlinable @inline(__always)
    public static func isFieldValueCharacter(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x7F || byte == 0x09 }

    /// Whether `text` may be a field value the probe sends: no CR, LF or NUL, the characters
    /// RFC 9110 section 5.5 says a recipient must never take as data, so a value can never add
    /// a header line. Other control characters are sent as given, as curl sends them: the
    /// server under test is the one to judge them.
    public static func isFieldValue(_ text: Substring) -> Bool {
        !text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}
