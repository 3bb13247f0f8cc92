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
