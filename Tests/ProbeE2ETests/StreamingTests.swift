import Foundation
import TestSupport
import Testing

/// Targets and reports stream (`probe-targets-stdin-read-to-eof-first`,
/// `probe-report-held-back-in-pipes`): `--targets -` on a pipe starts each call as its line
/// arrives, so `--deadline` and signals end a run whose input is still open; each call's report
/// reaches a pipe or file when the call ends, so a run killed with SIGKILL keeps it.
@Suite(.enabled(if: E2EServers.isConfigured, "set STAGEBUILD_E2E_STATE (Tests/e2e/servers/start)"))
struct StreamingTests {
    /// Runs a bash script with `$SB` the built `stagebuild`; a producer that sleeps keeps its
    /// end of a pipe open like `tail -f`. Process substitution lets `exec` make stagebuild the
    /// process the test signals.
    static func script(
        _ text: String, interruptAfter: Duration? = nil, signal: Int32 = SIGINT
    ) async throws -> StagebuildProcess.Run {
        try await ProcessRun.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", text],
            environment: StagebuildProcess.environment.merging(["SB": try StagebuildProcess.executable().path]) { $1 },
            interruptAfter: interruptAfter, signal: signal, limit: .seconds(40))
    }

    /// The targets a producer writes: `first` at once, then nothing for 30 s (input stays open).
    /// It closes every descriptor it inherited but its output: Foundation's `Process` sees a
    /// child end when a socket it shares with it closes, which a sleeping grandchild would hold.
    static func producer(_ first: String) -> String {
        """
        <(exec 2>/dev/null; for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done
            echo '\(first)'; exec sleep 30)
        """
    }

    @Test(.timeLimit(.minutes(1)))
    func aDeadlineEndsARunWhoseInputIsStillOpenWithWhatArrivedProbed() async throws {
        let servers = try E2EServers.current()
        let first = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/")
        let run = try await Self.script(
            "exec \"$SB\" probe --format json --deadline 2 --targets - < \(Self.producer(first))")
        // Input the run did not read to its end is a run cut short: exit 1, and said.
        #expect(run.status == 1, "\(run.summary)")
        #expect(run.stderr.contains("stopped reading --targets - after line 1"), "\(run.summary)")
        #expect(run.elapsed < .seconds(6), "the deadline waited for the end of input: \(run.summary)")
        let report = try run.report()
        #expect(report.probes.map(\.target) == [first], "\(run.summary)")
        #expect(report.probes.first?.outcome == "succeeded", "\(run.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func sigtermWhileInputIsOpenWritesTheReport() async throws {
        let servers = try E2EServers.current()
        let first = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/")
        let run = try await Self.script(
            "exec \"$SB\" probe --format json --targets - < \(Self.producer(first))",
            interruptAfter: .milliseconds(1_500), signal: SIGTERM)
        #expect(run.status == 143 && !run.killed, "\(run.summary)")
        let report = try run.report()
        #expect(report.probes.map(\.outcome) == ["succeeded"], "\(run.summary)")
    }

    /// Lines that arrive later are probed when they arrive, in order; a line that is no URL is
    /// a failed record in its place, and the comment and blank lines of a file are skipped.
    @Test(.timeLimit(.minutes(1)))
    func eachLineIsProbedAsItArrivesAndABadOneFailsInItsPlace() async throws {
        let servers = try E2EServers.current()
        let first = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/a")
        let second = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/b")
        let run = try await Self.script(
            """
            exec "$SB" probe --format json --expect-status 200-499 --repeat 2 --targets - \
                < <(echo '\(first)'; sleep 1; printf '# comment\\n\\nnot a url\\n'; sleep 1; printf '\(second)')
            """)
        #expect(run.status == 1, "\(run.summary)")
        let report = try run.report()
        #expect(report.probes.count == 6, "\(run.summary)")
        #expect(report.probes.map(\.outcome) == ["succeeded", "failed", "succeeded", "succeeded", "failed", "succeeded"])
        let refused = try #require(report.probes.dropFirst().first)
        #expect(refused.reason == "engineRefusedURL" && refused.message?.contains("<stdin>:4") == true, "\(run.summary)")
    }

    /// A line that is no URL is shown in its record with its query's tokens hidden, in every format.
    @Test(.timeLimit(.minutes(1)), arguments: ["text", "json", "junit"])
    func aMalformedLineShowsNoToken(format: String) async throws {
        let servers = try E2EServers.current()
        let line = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/?access_token=LINETOKEN&x=a#b#c")
        let run = try await Self.script("printf '%s\\n' '\(line)' | \"$SB\" probe --format \(format) --targets -")
        #expect(run.status == 1, "\(run.summary)")
        #expect(run.stdout.contains("access_token=***") && !run.output.contains("LINETOKEN"), "\(run.summary)")
    }

    @Test(.timeLimit(.minutes(1)))
    func standardInputWithoutAURLIsAnError() async throws {
        let run = try await Self.script("printf '# none\\n' | \"$SB\" probe --targets -")
        #expect(run.status == 65 && run.stderr.contains("--targets - holds no URL"), "\(run.summary)")
    }

    /// Through a file and a pipe, each call's report is out when the call ends: SIGKILL while a
    /// later call waits keeps the first one's record.
    @Test(.timeLimit(.minutes(1)), arguments: ["json", "text"])
    func aReportReachesAFileAsEachCallEnds(format: String) async throws {
        let servers = try E2EServers.current()
        let quick = servers.url("http", "127.0.0.1", "HTTP_PORT", path: "/")
        let silent = servers.url("http", "127.0.0.1", "SILENT_PORT")
        let run = try await Self.script(
            """
            out=$(mktemp); trap 'rm -f "$out"' EXIT
            printf '%s\\n%s\\n' '\(quick)' '\(silent)' > "$out.targets"
            "$SB" probe --format \(format) --concurrency 1 --max-time 30 --targets "$out.targets" | cat > "$out" &
            for _ in $(seq 100); do grep -q succeeded "$out" && break; sleep 0.1; done
            pkill -KILL -f -- "--targets $out.targets"; rm -f "$out.targets"; cat "$out"
            """)
        #expect(run.stdout.contains("succeeded") && run.stdout.contains(quick), "\(run.summary)")
        #expect(!run.stdout.contains(silent), "\(run.summary)")
    }
}
