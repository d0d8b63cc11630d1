import StageKit
import Testing

/// Bytes to text: UTF-8 as BuildKit reads it, and the position of the first byte that is not.
@Suite struct LintSourceTextTests {
    @Test func validTextKeepsItsByteOrderMark() throws {
        #expect(try LintSourceText.decode(Array("\u{FEFF}FROM scratch\n".utf8)) == "\u{FEFF}FROM scratch\n")
        #expect(try LintSourceText.decode([]) == "")
    }

    @Test(
        arguments: [
            // A Latin-1 byte in the middle of a line: line, scalar column, byte offset.
            ([0x61, 0x0A, 0xC3, 0xA9, 0x62, 0xFF, 0x0A], "2:3", 5, 0xFF),
            // An overlong encoding of "/" and a UTF-16 surrogate are not UTF-8.
            ([0x41, 0xC0, 0xAF], "1:2", 1, 0xC0),
            ([0x0A, 0x0A, 0xED, 0xA0, 0x80], "3:1", 2, 0xED),
            // A sequence cut off by the end of the file is reported where it starts.
            ([0x46, 0xE2, 0x82], "1:2", 1, 0xE2),
            // CRLF line endings: the carriage return is a column of its line.
            ([0x61, 0x0D, 0x0A, 0x62, 0x80], "2:2", 4, 0x80),
        ] as [([UInt8], String, Int, UInt8)])
    func firstInvalidByteIsLocated(_ bytes: [UInt8], _ position: String, _ offset: Int, _ byte: UInt8) {
        #expect(throws: LintSourceText.InvalidUTF8.self) { try LintSourceText.decode(bytes) }
        do {
            _ = try LintSourceText.decode(bytes)
        } catch {
            #expect("\(error.line):\(error.column)" == position)
            #expect(error.byteOffset == offset)
            #expect(error.byte == byte)
        }
    }

    @Test func messageNamesTheByteAndItsOffset() {
        let error = LintSourceText.InvalidUTF8(byteOffset: 34, byte: 0x0E, line: 3, column: 13)
        #expect(error.message == "not valid UTF-8 text: invalid byte 0x0E at byte offset 34")
        #expect(error.description == "3:13: not valid UTF-8 text: invalid byte 0x0E at byte offset 34")
    }
}
