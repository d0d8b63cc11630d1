import DockerfileSyntax

extension DockerfileDocument {
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
                        pin.targetRelease = apt.targetRelease
                        pins.append(pin)
                    }
                }
            }
        }
        return (pins, variable)
    }

    /// Where the document adds apt sources itself: a `COPY` or `ADD` onto a path where apt
    /// reads sources or configuration (`/etc/apt/…`, or a folder above it such as `/etc` or `/`,
    /// joined with the `WORKDIR` in force and normalised as BuildKit does), or a `RUN` that calls
    /// `add-apt-repository`, names a source file (`tee …/x.list`, `cp … /etc/apt/sources.list.d/`,
    /// `sed -i … /etc/apt/sources.list`), writes one under `/etc/apt` (`> …`), mounts one there
    /// (`--mount=…,target=…`, BuildKit's `target`, `dst` or `destination`), or points apt at
    /// other files (`-o Dir::Etc::SourceList=…`, `-o Dir=…`, `-c FILE`, `--config-file`,
    /// `APT_CONFIG=…`). A pin apt may find in such a source cannot be checked where no template
    /// declares it.
    ///
    /// - Returns: Each instruction's or command's position, in file order.
    func aptSourceEdits() -> [SourceLocation] {
        var found: [SourceLocation] = []
        var workdirs: [Int: String] = [:]
        var workdir = "/"
        for (index, entry) in entries.enumerated() {
            if entry.keyword == .from { workdir = "/" }
            if entry.keyword == .workdir, let value = entry.instruction.singleValue {
                workdir = Paths.absolute(unquoted(value.text), from: workdir)
            }
            workdirs[index] = workdir
            guard let copy = entry.instruction.asCopy, let destination = copy.destination,
                Self.reachesApt(Paths.absolute(unquoted(destination.text), from: workdir))
            else { continue }
            found.append(entry.instruction.location(of: destination))
        }
        for script in runScripts {
            let here = workdirs[script.entryIndex] ?? "/"
            let mountTargets = script.mounts.compactMap(\.target)
            if mountTargets.contains(where: { Self.reachesApt(Paths.absolute($0, from: here)) }) {
                found.append(script.run.location)
            }
            for command in script.commands {
                let aptPrograms = ["apt-get", "apt", "apt-cache", "add-apt-repository", "apt-add-repository"]
                let isApt = command.program.map(aptPrograms.contains) == true
                let words = command.words.map(\.text)
                let configures =
                    words.contains { $0.hasPrefix("APT_CONFIG=") }
                    || isApt
                        && words.contains { word in
                            let lower = word.lowercased()
                            return lower.contains("dir::") || lower.contains("dir=") || lower.hasPrefix("-c")
                                || lower.hasPrefix("--config-file")
                        }
                let names = ["add-apt-repository", "apt-add-repository"]
                let touches =
                    command.program.map(names.contains) == true
                    || command.arguments.map(\.text).contains {
                        $0.hasPrefix("/") && Paths.absolute($0, from: "/").hasPrefix("/etc/apt/sources.list")
                    }
                    || command.outputTargets.contains { Self.reachesApt(Paths.absolute($0, from: here)) }
                if touches || configures, let first = command.words.first { found.append(first.location) }
            }
        }
        return found.sorted()
    }

    /// Whether writing at a path can change what apt reads: under `/etc/apt`, or a folder above
    /// it (`/etc`, `/`) that a copy or mount replaces whole.
    static func reachesApt(_ path: String) -> Bool {
        path == "/" || path == "/etc" || path == "/etc/apt" || path.hasPrefix("/etc/apt/")
    }
}
