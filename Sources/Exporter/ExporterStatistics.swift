import ProbeKit
import Synchronization

/// What the exporter has done, for `GET /metrics` and the page at `/`: probes by module and
/// outcome, their total duration, and the last probes' reports.
final class ExporterStatistics: Sendable {
    /// A probe as the page lists it.
    struct RecentProbe: Sendable {
        var module: String
        var target: String
        var outcome: String
        var seconds: Double
        /// The probe's text report (secrets already removed).
        var report: String
    }

    private struct State {
        /// `(module, outcome)` → count.
        var counts: [String: [String: Int]] = [:]
        var secondsByModule: [String: Double] = [:]
        var recent: [RecentProbe] = []
    }

    /// How many probes the page keeps.
    static let recentCount = 100

    private let state = Mutex(State())

    func record(module: String, result: ProbeResult, seconds: Double) {
        let outcome = result.outcome.name
        let recent = RecentProbe(
            module: module, target: result.target, outcome: outcome, seconds: seconds, report: ReportFormat.text.render([result]))
        state.withLock { state in
            state.counts[module, default: [:]][outcome, default: 0] += 1
            state.secondsByModule[module, default: 0] += seconds
            state.recent.append(recent)
            if state.recent.count > Self.recentCount { state.recent.removeFirst(state.recent.count - Self.recentCount) }
        }
    }

    /// The last probes, newest last.
    var recent: [RecentProbe] { state.withLock { $0.recent } }

    /// The exporter's own families.
    func families(inFlight: Int) -> [MetricFamily] {
        let (counts, seconds) = state.withLock { ($0.counts, $0.secondsByModule) }
        let probes = counts.keys.sorted().flatMap { module in
            (counts[module] ?? [:]).keys.sorted().map { outcome in
                MetricFamily.Sample(
                    labels: [("module", module), ("outcome", outcome)], value: Double(counts[module]?[outcome] ?? 0))
            }
        }
        let durations = seconds.keys.sorted().map {
            MetricFamily.Sample(labels: [("module", $0)], value: seconds[$0] ?? 0)
        }
        return [
            MetricFamily(
                "stagebuild_exporter_probes_total", help: "Probes run, by module and outcome", kind: .counter, samples: probes),
            MetricFamily(
                "stagebuild_exporter_probe_duration_seconds_total", help: "Seconds spent probing, by module", kind: .counter,
                samples: durations),
            .gauge("stagebuild_exporter_probes_in_flight", help: "Probes running now", Double(inFlight)),
        ]
    }
}
