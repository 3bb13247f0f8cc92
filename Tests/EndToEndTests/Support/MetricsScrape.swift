import Foundation

/// One scrape of `/metrics`: sample values by their exact `name{labels}` text.
struct MetricsScrape {
    let text: String

    /// The value of the sample written exactly as `series` (e.g. `dyn_errors_total{code="bad_json"}`); 0
    /// when the series is absent (a counter that never moved).
    func value(_ series: String) -> Double {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            if line[..<space] == series { return Double(line[line.index(after: space)...]) ?? .nan }
        }
        return 0
    }

    static func fetch(port: UInt16) throws -> MetricsScrape {
        let reply = try HTTPReply.get(port: port, "/metrics")
        guard let reply, reply.status == 200 else { throw EndToEndError("GET /metrics failed: \(String(describing: reply?.status))") }
        return MetricsScrape(text: reply.body)
    }
}
