/// git as `diff` runs it: the program found on `PATH`, the command's environment in the C
/// locale and never prompting, each run through `ChildProcess` with a deadline.
struct GitCommand: Sendable {
    /// git's absolute path.
    let program: String
    /// The environment every run sees.
    let environment: [String: String]

    /// git with the command's environment.
    ///
    /// - Parameters:
    ///   - program: git's absolute path.
    ///   - environment: The command's environment.
    init(program: String, environment: [String: String]) {
        self.program = program
        var environment = environment
        environment["LC_ALL"] = "C"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        self.environment = environment
    }

    /// Runs git to its end.
    ///
    /// - Parameters:
    ///   - arguments: Its arguments, e.g. `["-C", root, "ls-files", "-z"]`.
    ///   - input: Its standard input.
    /// - Returns: Its status and outputs.
    /// - Throws: `ChildProcess.Failure` when it cannot start or runs past 300 s.
    func run(_ arguments: [String], input: [UInt8] = []) throws(ChildProcess.Failure) -> ChildProcess.Result {
        try ChildProcess(program: program, arguments: arguments, environment: environment, input: input, deadline: 300).run()
    }

    /// Runs several gits side by side, each to its end: listings that do not depend on one
    /// another (each one reads the disk or the object store, so two cores halve the wait).
    ///
    /// - Parameter argumentLists: Each run's arguments.
    /// - Returns: Each run's status and outputs, in the order given.
    /// - Throws: The first run's `ChildProcess.Failure`, in the order given, when one cannot
    ///   start or runs past its deadline.
    func runSideBySide(_ argumentLists: [[String]]) throws(ChildProcess.Failure) -> [ChildProcess.Result] {
        try concurrently(argumentLists.count) { index in
            Result { () throws(ChildProcess.Failure) in try run(argumentLists[index]) }
        }.map { result throws(ChildProcess.Failure) in try result.get() }
    }
}
