import Foundation

/// Programs outside the package that some tests drive (installed by `scripts/bootstrap.sh`).
enum ExternalTool {
    /// The first of `names` found on PATH (or in /usr/bin), else nil.
    static func find(_ names: String...) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/usr/local/bin"
        for name in names {
            for dir in path.split(separator: ":") {
                let candidate = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    static var promtool: String? { find("promtool") }
    static var chromium: String? {
        ProcessInfo.processInfo.environment["DYN_CHROMIUM"] ?? find("chromium", "chromium-browser", "google-chrome")
    }

    /// Runs `path` with `arguments`, `input` on stdin; returns the exit status and stdout + stderr.
    static func run(_ path: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe(), output = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = output
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

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
