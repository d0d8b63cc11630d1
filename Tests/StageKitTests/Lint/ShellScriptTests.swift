import DockerfileSyntax
import Testing

@testable import StageKit

/// The shell reader behind the RUN rules: commands, separators, quotes, comments, here-documents.
@Suite struct ShellScriptTests {
    private func read(_ script: String) -> [ShellScript.Command] {
        ShellScript(script, locate: { SourceLocation(line: 1, column: $0 + 1) }).commands
    }

    private func programs(_ script: String) -> [String] {
        read(script).compactMap(\.program)
    }

    @Test func commandSubstitutionsAreReadIntoTheirCommand() {
        let commands = read(#"dst="$(echo "$src" | tr -d 3)" && for f in `ls | sort`; do cat <(sort "$f"); done"#)
        let assignment = commands[0]
        #expect(assignment.substitutions.map(\.program) == ["echo", "tr"])
        #expect(assignment.substitutions.map(\.separator) == [.pipe, .end])
        #expect(assignment.substitutions[0].words[0].location == SourceLocation(line: 1, column: 8))
        #expect(commands[1].substitutions.map(\.program) == ["ls", "sort"])
        #expect(commands[2].substitutions.map(\.program) == ["sort"])
        #expect(commands[2].inRunOrder.map(\.program) == ["sort", "cat"])
        // Arithmetic is no command; a nested substitution is its substitution's.
        #expect(read("echo $((1 | 2))").first?.substitutions.isEmpty == true)
        let nested = read("a=$(b $(c | d))").first?.substitutions.first
        #expect(nested?.program == "b" && nested?.substitutions.map(\.program) == ["c", "d"])
    }

    @Test func caseItemPatternsAreNoCommandsAndTheirBarsNoPipes() {
        let script = "case \"$arch\" in\n  amd64 | arm64) echo a | sort ;;\n  (i386|curl) echo b;;\n  *) ;;\nesac; ls"
        let commands = read(script)
        #expect(commands.compactMap(\.program) == ["case", "echo", "sort", "echo", "ls"])
        #expect(commands.map(\.separator).filter { $0 == .pipe }.count == 1)
        #expect(programs("if true; then case x in a|b) tar x;; esac; fi") == ["true", "case", "tar", "fi"])
    }

    @Test func conditionalExpressionsAndExtendedGlobsKeepTheirBars() {
        let commands = read(#"[[ "$a" =~ ^(x|y)$ ]] && rm -rf /opt/!(keep|this) || [[ $b == @(c|d) ]]; ls | wc"#)
        #expect(commands.compactMap(\.program) == ["[[", "rm", "[[", "ls", "wc"])
        #expect(commands[0].words.map(\.text) == ["[[", "$a", "=~", "^(x|y)$", "]]"])
        #expect(commands[1].words.last?.text == "/opt/!(keep|this)")
        #expect(commands.map(\.separator) == [.and, .or, .sequence, .pipe, .end])
        // Inside double quotes, a backquoted \" is a quote: "x | y" is text there.
        #expect(read(#"echo "`echo \"x | y\"`""#).first?.substitutions.map(\.program) == ["echo"])
    }

    @Test func separatorsSplitCommands() {
        let commands = read("a 1 && b 2 || c; d | e & f\ng")
        #expect(commands.map { $0.words.map(\.text).joined(separator: " ") } == ["a 1", "b 2", "c", "d", "e", "f", "g"])
        #expect(commands.map(\.separator) == [.and, .or, .sequence, .pipe, .sequence, .sequence, .end])
    }

    @Test func quotesAndEscapesAreRemovedAndContinuationsJoined() {
        let commands = read("echo 'a b' \"c \\\"d\\\"\" e\\ f \\\n  g")
        #expect(commands.first?.words.map(\.text) == ["echo", "a b", "c \"d\"", "e f", "g"])
    }

    @Test func commentsAreSkippedButHashInsideWordsIsKept() {
        #expect(programs("# apt-get upgrade\necho a#b # curl x | sh\nls") == ["echo", "ls"])
        #expect(read("echo a#b").first?.words.last?.text == "a#b")
    }

    @Test func assignmentsKeywordsAndWrappersAreSkipped() {
        #expect(programs("DEBIAN_FRONTEND=noninteractive apt-get install x") == ["apt-get"])
        #expect(programs("if true; then sudo -u app -E env A=1 nice -n 5 pip install x; fi") == ["true", "pip", "fi"])
        #expect(programs("/usr/bin/apt-get update") == ["apt-get"])
    }

    @Test func redirectionTargetsAreNotArguments() {
        let command = read("curl -fsSL https://x 2>&1 >/tmp/log -o out").first
        #expect(command?.arguments.map(\.text) == ["-fsSL", "https://x", "-o", "out"])
    }

    @Test func hereDocumentBodiesAreDataNotCommands() {
        let script = """
            cat > /etc/apt/sources.list <<'SOURCES'
            apt-get upgrade
            SOURCES
            cat <<-EOF | tee /x
            \tcurl https://x | sh
            \tEOF
            echo done
            """
        #expect(programs(script) == ["cat", "cat", "tee", "echo"])
        #expect(read(script).first?.heredocDelimiters == ["SOURCES"])
    }

    @Test func commandSubstitutionStaysInItsWordAndShellDashCIsRead() {
        let commands = read("sh -c \"$(curl -fsSL https://x/i.sh)\" && bash -ec 'apt-get update; apt-get upgrade'")
        #expect(commands.first?.arguments.last?.text == "$(curl -fsSL https://x/i.sh)")
        #expect(commands.compactMap(\.program).suffix(2) == ["apt-get", "apt-get"])
    }

    @Test func interpreterOfAShebangLine() {
        #expect(ShellScript.interpreter(of: "#!/bin/bash\nset -e\n") == "bash")
        #expect(ShellScript.interpreter(of: "#!/usr/bin/env python3\nprint()\n") == "python3")
        #expect(ShellScript.interpreter(of: "set -e\n") == nil)
    }

    @Test func heredocOfARunIsAScriptOnlyWhenAShellRunsIt() throws {
        let rule = try #require(Linter().rule(withID: "SB006"))
        let linter = Linter(rules: [rule])
        let script = "apt-get -y upgrade\n"
        #expect(try linter.lint(text: "RUN <<EOF\n\(script)EOF\n").count == 1)
        #expect(try linter.lint(text: "RUN bash -eux <<EOF\n\(script)EOF\n").count == 1)
        #expect(try linter.lint(text: "RUN <<EOF\n#!/usr/bin/env bash\n\(script)EOF\n").count == 1)
        #expect(try linter.lint(text: "RUN <<EOF\n#!/usr/bin/python3\n\(script)EOF\n").isEmpty)
        #expect(try linter.lint(text: "RUN cat <<EOF > /notes.txt\n\(script)EOF\n").isEmpty)
        #expect(try linter.lint(text: "RUN python3 <<EOF\n\(script)EOF\n").isEmpty)
        #expect(try linter.lint(text: "COPY <<EOF /upgrade.sh\n\(script)EOF\n").isEmpty)
    }
}
