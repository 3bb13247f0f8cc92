#if canImport(Glibc)
import Glibc
#endif

/// Prometheus' standard process metrics (the `process_*` names every client library exports), read from
/// Linux's `/proc/self` at each scrape: resident and virtual memory, open and allowed descriptors, CPU time
/// and the start time.
///
/// Guarantees: a value that cannot be read (no `/proc`) is left out rather than reported as 0; CPU seconds
/// are user + system time; the start time is seconds since the Unix epoch (boot time + the process's start
/// tick), as `process_start_time_seconds` is defined.
struct ProcessMetrics {
    var residentBytes: Double?
    var virtualBytes: Double?
    var openFDs: Double?
    var maxFDs: Double?
    var cpuSeconds: Double?
    var startTimeSeconds: Double?

    /// The current values of this process.
    static func read() -> ProcessMetrics {
        var metrics = ProcessMetrics()
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageBytes = Double(sysconf(Int32(_SC_PAGESIZE)))
        // /proc/self/stat: "pid (comm) state ..."; comm may hold spaces and parentheses, so fields are
        // counted from the last ')'. After it, index 0 is field 3 (state) of proc(5).
        if let stat = readProcFile("/proc/self/stat"), let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            func field(_ number: Int) -> Double? { fields.count > number - 3 ? Double(fields[number - 3]) : nil }
            if let utime = field(14), let stime = field(15), ticksPerSecond > 0 {
                metrics.cpuSeconds = (utime + stime) / ticksPerSecond
            }
            metrics.virtualBytes = field(23)
            metrics.residentBytes = field(24).map { $0 * pageBytes }
            if let start = field(22), ticksPerSecond > 0, let boot = bootTime() {
                metrics.startTimeSeconds = boot + start / ticksPerSecond
            }
        }
        metrics.openFDs = countOpenFDs()
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 { metrics.maxFDs = Double(limit.rlim_cur) }
        return metrics
    }

    /// `btime` of /proc/stat: when the machine booted, in seconds since the epoch.
    private static func bootTime() -> Double? {
        guard let stat = readProcFile("/proc/stat") else { return nil }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingPrefixSpaces)
        }
        return nil
    }

    private static func countOpenFDs() -> Double? {
        guard let dir = opendir("/proc/self/fd") else { return nil }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            let first = withUnsafeBytes(of: entry.pointee.d_name) { $0.first ?? 0 }
            if first != UInt8(ascii: ".") { count += 1 }
        }
        // The directory stream itself holds one descriptor while it is read.
        return Double(max(0, count - 1))
    }

    /// A small /proc file read whole (its size is not known in advance: /proc reports 0).
    private static func readProcFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private extension Substring {
    var trimmingPrefixSpaces: Substring { drop { $0 == " " } }
}
