import DockerfileSyntax

extension LintDocument {
    /// The `NAME=VERSION` operands of `apt-get install` and `apt install` in the document's
    /// `RUN` scripts (heredoc scripts and `sh -c` included), in file order, read in one pass
    /// with the same command reading as lint's apt rules: the Debian packages `stagebuild lock`
    /// resolves, and those whose name or version is a variable (`curl=${CURL_VERSION}`), which
    /// lock cannot resolve and refuses.
    ///
    /// - Parameters:
    ///   - file: The file's name as messages show it.
    ///   - path: The file's absolute path.
    /// - Returns: The pins, and each variable operand as written with its file and position.
    func packagePins(
        file: String, path: String
    ) -> (pins: [PackagePin], variable: [(written: String, file: String, location: SourceLocation)]) {
        var pins: [PackagePin] = []
        var variable: [(written: String, file: String, location: SourceLocation)] = []
        for script in runScripts {
            for command in script.commands {
                guard let apt = AptGetCommand(command), apt.action == "install" else { continue }
                for word in apt.operands {
                    if word.text.contains("=") && word.text.contains("$") {
                        variable.append((word.text, file, word.location))
                    } else if var pin = PackagePin(
                        operand: word.text, file: file, location: word.location, isQuoted: word.isQuoted)
                    {
                        pin.path = path
                        pins.append(pin)
                    }
                }
            }
        }
        return (pins, variable)
    }
}
