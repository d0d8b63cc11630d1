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

    /// The `NAME=VERSION` operands of `apt-get install` whose name or version is a variable
    /// (`curl=${CURL_VERSION}`): `stagebuild lock` cannot resolve them, and refuses them.
    ///
    /// - Parameter file: The file's name as messages show it.
    /// - Returns: Each operand as written, with the file and its position.
    func variablePackagePins(file: String) -> [(written: String, file: String, location: SourceLocation)] {
        var found: [(written: String, file: String, location: SourceLocation)] = []
        for script in runScripts {
            for command in script.commands {
                guard let apt = AptGetCommand(command), apt.action == "install" else { continue }
                for word in apt.operands where word.text.contains("=") && word.text.contains("$") {
                    found.append((word.text, file, word.location))
                }
            }
        }
        return found
    }
}
