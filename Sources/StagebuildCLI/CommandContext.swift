import Foundation
import ProbeKit
import Serialization
import StageKit
import Synchronization

/// Everything a command reads from or writes to outside itself, so tests run commands
/// in-process with a fixed environment and captured output.
public struct CommandContext: Sendable {
    /// Environment variables.
    public var environment: [String: String]
    /// The absolute current directory.
    public var currentDirectory: String
    /// The absolute path of the running executable; the installed catalog is found beside it.
    public var executablePath: String
    /// Standard output.
    public var standardOutput: any TextSink
    /// Standard error.
    public var standardError: any TextSink
    /// Whether a command may take over SIGINT (`probe` cancels its run and still reports);
    /// `true` for the real process, `false` for in-process tests.
    public var handlesInterrupts = false
    /// The files commands read: the local file system, or a test's.
    public var fileSystem: any FileSystem = LocalFileSystem()
    /// The clock: the time now (`lock --snapshot now`).
    public var now: @Sendable () -> Date = { Date() }
    /// Reads standard input (`--targets -`): up to the given number of bytes, waiting until some
    /// arrive; empty at its end (or when it cannot be read).
    public var readStandardInput: @Sendable (Int) -> [UInt8] = StandardInput.read
    /// Whether standard input is a stream whose lines may keep arriving (a pipe, FIFO, socket or
    /// terminal) rather than a regular file, whose end is there to read at once.
    public var standardInputIsStream: Bool = StandardInput.isStream

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - environment: Environment variables.
    ///   - currentDirectory: The absolute current directory.
    ///   - executablePath: The executable's absolute path.
    ///   - standardOutput: Where output goes.
    ///   - standardError: Where diagnostics go.
    public init(
        environment: [String: String], currentDirectory: String, executablePath: String,
        standardOutput: any TextSink, standardError: any TextSink
    ) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.executablePath = executablePath
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The context of this process: its environment, directory, and stdout/stderr.
    public static func process() -> CommandContext {
        // Read from the C library: `ProcessInfo`, `FileManager` and `Bundle` each set up state
        // that costs every command, a single probe included, a share of its start-up.
        var context = CommandContext(
            environment: processEnvironment(), currentDirectory: processDirectory(),
            executablePath: processExecutable(),
            standardOutput: FileDescriptorSink(descriptor: 1), standardError: FileDescriptorSink(descriptor: 2))
        context.handlesInterrupts = true
        return context
    }

    /// environ(7) as a dictionary; of a name set twice, the first entry wins, as getenv(3)'s.
    private static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "="), environment[String(text[..<equals])] == nil {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return environment
    }

    /// getcwd(3), or `/` when the directory was removed under the process.
    private static func processDirectory() -> String {
        guard let directory = getcwd(nil, 0) else { return "/" }
        defer { free(directory) }
        return String(cString: directory)
    }

    /// The running file with every symlink resolved: the kernel's `/proc/self/exe` (realpath(3)),
    /// else argv[0]. Not `Bundle.main`: it scans the executable's folder when first used, a cost
    /// that grows with the folder.
    private static func processExecutable() -> String {
        guard let resolved = realpath("/proc/self/exe", nil) else {
            return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether diagnostics may be coloured: see ``usesColor(on:)`` for standard error.
    public var usesColor: Bool { usesColor(on: standardError) }

    /// The one colour decision: text written to a sink may be coloured when the sink is a
    /// terminal, `NO_COLOR` is unset or empty (no-color.org) and `TERM` is not `dumb`.
    ///
    /// - Parameter sink: Where the text goes.
    public func usesColor(on sink: any TextSink) -> Bool {
        sink.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Writes `warning: message` to standard error (the label magenta on a terminal, as
    /// compilers colour warnings), control characters shown as escapes: the one way commands
    /// warn.
    ///
    /// - Parameter message: The message.
    public func warn(_ message: String) {
        let label = usesColor ? "\u{1B}[1;35mwarning:\u{1B}[0m " : "warning: "
        standardError.write(label + ControlCharacters.escaped(message) + "\n")
    }

    /// `error: MESSAGE` and a newline, the label red when coloured; control characters in the
    /// message are shown as escapes: a message may quote a file's bytes, and raw escape
    /// sequences would drive the terminal.
    static func errorLine(_ message: String, color: Bool) -> String {
        (color ? "\u{1B}[1;31merror:\u{1B}[0m " : "error: ") + ControlCharacters.escaped(message) + "\n"
    }
}

/// A place text is written to.
public protocol TextSink: Sendable {
    /// Writes text as UTF-8.
    ///
    /// - Parameter text: The text.
    func write(_ text: String)
    /// Writes UTF-8 bytes as they are: a report's chunks, which need no check or copy into a
    /// `String` on their way out.
    ///
    /// - Parameter bytes: UTF-8 text.
    func write(utf8 bytes: [UInt8])
    /// True when the sink is a terminal (colour and progress may be shown).
    var isTerminal: Bool { get }
    /// The system's reason for the first write that failed (e.g. `No space left on device`),
    /// `nil` while every write succeeded.
    var writeFailure: String? { get }
}

extension TextSink {
    /// Sinks that cannot fail never report a failure.
    public var writeFailure: String? { nil }

    /// The bytes as text, for sinks that keep text.
    public func write(utf8 bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
}

/// A sink over an open file descriptor, e.g. 1 for stdout.
public final class FileDescriptorSink: TextSink, Sendable {
    /// The descriptor written to.
    public let descriptor: Int32
    private let failure = Mutex<String?>(nil)

    /// Creates a sink.
    ///
    /// - Parameter descriptor: An open file descriptor.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes all bytes, retrying short writes and EINTR; after a failure (a full disk, a
    /// closed descriptor) nothing more is written and `writeFailure` says why.
    public func write(_ text: String) {
        var text = text
        // Native strings are written from their own bytes, not a copy.
        text.makeContiguousUTF8()
        text.utf8.withContiguousStorageIfAvailable { writeAll($0) }
    }

    /// Writes the bytes as ``write(_:)`` writes text's.
    public func write(utf8 bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeAll($0) }
    }

    private func writeAll(_ all: UnsafeBufferPointer<UInt8>) {
        guard writeFailure == nil, let base = all.baseAddress else { return }
        var offset = 0
        while offset < all.count {
            let written = Foundation.write(descriptor, base + offset, all.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                failure.withLock { $0 = $0 ?? reason }
                return
            }
            offset += written
        }
    }

    /// The reason of the first failed write, if any.
    public var writeFailure: String? { failure.withLock { $0 } }

    /// isatty(3) on the descriptor.
    public var isTerminal: Bool { isatty(descriptor) == 1 }
}
