import DockerfileSyntax

extension LintDocument {
    /// Every `NAME=VERSION` operand of `apt-get install` and `apt install` in the document's
    /// `RUN` scripts (heredoc scripts and `sh -c` included), in file order: the Debian packages
    /// `stagebuild lock` resolves. Read with the same command reading as lint's apt rules.
    ///
    /// - Parameters:
    ///   - file: The file's name as messages show it.
    ///   - path: The file's absolute path.
    /// - Returns: The pins.
    func packagePins(file: String, path: String) -> [PackagePin] {
        var pins: [PackagePin] = []
        for script in runScripts {
            for command in script.commands {
                guard let apt = AptGetCommand(command), apt.action == "install" else { continue }
                for word in apt.operands {
                    if var pin = PackagePin(operand: word.text, file: file, location: word.location, isQuoted: word.isQuoted) {
                        pin.path = path
                        pins.append(pin)
                    }
                }
            }
        }
        return pins
    }
}
