import Foundation
import Testing

/// One scrape of `/metrics`: sample values by their exact `name{labels}` text.
///
/// Guarantees: asking `value` for a series the scrape does not hold fails the running test (an issue naming
/// the series and the families present) and answers NaN, which no comparison accepts: a series that vanished
/// or was renamed can never pass an `== 0` check. A series that may rightly be absent is read with `sample`.
struct MetricsScrape {
    let text: String

    /// The value of the sample written exactly as `series` (e.g. `dyn_errors_total{code="bad_json"}`), or nil
    /// when the scrape has no such line.
    func sample(_ series: String) -> Double? {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            if line[..<space] == series { return Double(line[line.index(after: space)...]) ?? .nan }
        }
        return nil
    }

    /// The value of `series`, which must be present (see the type's guarantees).
    func value(_ series: String, sourceLocation: SourceLocation = #_sourceLocation) -> Double {
        if let value = sample(series) { return value }
        let families = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
        Issue.record("no series \(series) in the scrape (families: \(families.joined(separator: ", ")))", sourceLocation: sourceLocation)
        return .nan
    }

    static func fetch(port: UInt16) throws -> MetricsScrape {
        let reply = try HTTPReply.get(port: port, "/metrics")
        guard let reply, reply.status == 200 else { throw EndToEndError("GET /metrics failed: \(String(describing: reply?.status))") }
        return MetricsScrape(text: reply.body)
    }
}
