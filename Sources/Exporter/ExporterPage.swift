import Foundation
import Serialization

/// The page at `/`: the modules, and the last probes with their reports, every text escaped
/// for HTML (a target or a report is the probe's input and output, not markup).
enum ExporterPage {
    static func html(modules: [ExporterModule], recent: [ExporterStatistics.RecentProbe]) -> String {
        var page = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>stagebuild exporter</title></head><body>
            <h1>stagebuild exporter</h1>
            <p><a href="/metrics">Metrics</a>. Probe with <code>/probe?target=URL&amp;module=NAME</code>.</p>
            <h2>Modules</h2><ul>

            """
        for module in modules {
            let note = module.notRunReason.map { " (\(MarkupText.escaped($0)))" } ?? ""
            page += "<li><code>\(MarkupText.escaped(module.name))</code>\(note)</li>\n"
        }
        page += "</ul>\n<h2>Recent probes</h2>\n<table><tr><th>module</th><th>target</th><th>outcome</th><th>seconds</th></tr>\n"
        for probe in recent.reversed() {
            page +=
                "<tr><td>\(MarkupText.escaped(probe.module))</td><td>\(MarkupText.escaped(probe.target))</td><td>\(MarkupText.escaped(probe.outcome))</td>"
            page += "<td>\(String(format: "%.3f", probe.seconds))</td></tr>\n"
            page += "<tr><td colspan=\"4\"><pre>\(MarkupText.escaped(probe.report, attribute: false))</pre></td></tr>\n"
        }
        return page + "</table>\n</body></html>\n"
    }
}
