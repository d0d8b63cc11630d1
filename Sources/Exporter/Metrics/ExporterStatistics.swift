import Foundation
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
        /// Probes asked for and refused before they ran, by reason.
        var refused: [String: Int] = [:]
        /// Probes started.
        var started = 0
        /// Whether the last reload (or the first load) took; blackbox starts at 1.
        var lastReloadSucceeded = true
        /// When the config last loaded, in seconds since 1970.
        var lastReloadSuccess = Date().timeIntervalSince1970
    }

    /// How many probes the page keeps.
    static let recentCount = 100

    private let state = Mutex(State())

    func record(module: String, result: ProbeResult, seconds: Double) {
        let outcome = result.outcome.name
        let recent = RecentProbe(
            module: module, target: result.target, outcome: outcome, seconds: seconds,
            report: ModuleWords.translate(ReportFormat.text.render([result])))
        state.withLock { state in
            state.counts[module, default: [:]][outcome, default: 0] += 1
            state.secondsByModule[module, default: 0] += seconds
            state.recent.append(recent)
            if state.recent.count > Self.recentCount { state.recent.removeFirst(state.recent.count - Self.recentCount) }
        }
    }

    /// Notes a probe that starts.
    func recordStart() { state.withLock { $0.started += 1 } }

    /// Notes a probe refused before it ran.
    ///
    /// - Parameter reason: `max_concurrent` (503), `target_not_allowed` (403), `unknown_module`
    ///   or `missing_target` (400).
    func recordRefusal(_ reason: String) { state.withLock { $0.refused[reason, default: 0] += 1 } }

    /// Notes a reload of the config: whether it took, and when it last did.
    func recordReload(succeeded: Bool) {
        state.withLock { state in
            state.lastReloadSucceeded = succeeded
            if succeeded { state.lastReloadSuccess = Date().timeIntervalSince1970 }
        }
    }

    /// The last probes, newest last.
    var recent: [RecentProbe] { state.withLock { $0.recent } }

    /// The exporter's own families.
    func families(inFlight: Int) -> [MetricFamily] {
        let (counts, seconds, reloaded, reloadedAt, refused, started) = state.withLock {
            ($0.counts, $0.secondsByModule, $0.lastReloadSucceeded, $0.lastReloadSuccess, $0.refused, $0.started)
        }
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
            MetricFamily(
                "stagebuild_exporter_probes_started_total", help: "Probes started", kind: .counter,
                samples: [.init(value: Double(started))]),
            MetricFamily(
                "stagebuild_exporter_probes_refused_total", help: "Probes refused before they ran, by reason", kind: .counter,
                samples: [
                    "max_concurrent", "target_not_allowed", "unknown_module", "module_not_run", "missing_target",
                    "bad_scrape_timeout",
                ].map {
                    .init(labels: [("reason", $0)], value: Double(refused[$0] ?? 0))
                }),
            // blackbox_exporter's own names, which its alerts and dashboards read.
            MetricFamily(
                "blackbox_module_unknown_total", help: "Count of unknown modules requested by probes", kind: .counter,
                samples: [.init(value: Double(refused["unknown_module"] ?? 0))]),
            .gauge(
                "blackbox_exporter_config_last_reload_successful", help: "Blackbox exporter config loaded successfully.",
                reloaded ? 1 : 0),
            .gauge(
                "blackbox_exporter_config_last_reload_success_timestamp_seconds",
                help: "Timestamp of the last successful configuration reload.", reloadedAt),
        ] + ProcessMetrics.families()
    }
}
