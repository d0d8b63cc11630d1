import Foundation

/// The exporter process's own CPU, memory and descriptors in the names Prometheus's Go client
/// gives them (client_golang's process collector, which blackbox_exporter exposes), read from
/// Linux's `/proc/self` (proc(5)): dashboards and alerts written for any Prometheus exporter
/// read these.
enum ProcessMetrics {
    /// The families; a value `/proc` does not give is left out.
    static func families() -> [MetricFamily] {
        var families: [MetricFamily] = []
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        // /proc/self/stat: the fields after the command's closing parenthesis, from field 3.
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"), ticks > 0
        {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            func field(_ number: Int) -> Double? { fields.indices.contains(number - 3) ? Double(fields[number - 3]) : nil }
            if let user = field(14), let system = field(15) {
                families.append(
                    MetricFamily(
                        "process_cpu_seconds_total", help: "Total user and system CPU time spent in seconds.", kind: .counter,
                        samples: [.init(value: (user + system) / ticks)]))
            }
            if let virtual = field(23) {
                families.append(.gauge("process_virtual_memory_bytes", help: "Virtual memory size in bytes.", virtual))
            }
            if let pages = field(24) {
                let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
                families.append(.gauge("process_resident_memory_bytes", help: "Resident memory size in bytes.", pages * pageSize))
            }
            if let started = field(22), let boot = bootTime() {
                families.append(
                    .gauge(
                        "process_start_time_seconds", help: "Start time of the process since unix epoch in seconds.",
                        boot + started / ticks))
            }
        }
        if let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            families.append(.gauge("process_open_fds", help: "Number of open file descriptors.", Double(descriptors.count)))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            families.append(.gauge("process_max_fds", help: "Maximum number of open file descriptors.", Double(limit.rlim_cur)))
        }
        return families
    }

    /// The system's boot time in seconds since 1970 (`btime` of `/proc/stat`).
    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("btime ") }
        return line.flatMap { Double($0.dropFirst("btime ".count)) }
    }
}
