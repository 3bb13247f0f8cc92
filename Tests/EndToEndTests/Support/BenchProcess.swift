import Foundation

/// Runs the real `dynbench` binary (next to `dynserver`) and reads back its JSON lines.
enum BenchProcess {
    struct Run {
        var status: Int32
        var lines: [[String: Any]]
        var stderr: String
    }

    static var path: String { ServerProcess.productsDirectory.appendingPathComponent("dynbench").path }

    /// Runs `dynbench` to its end (stdout and stderr read concurrently); throws if it runs longer than
    /// `timeout` seconds (it is killed).
    static func run(_ arguments: [String], timeout: Double = 120) throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw EndToEndError("no dynbench binary at \(path): run `swift build --build-tests`")
        }
        let outcome = try ChildProcess.run(path, arguments, timeout: timeout)
        guard let status = outcome.status else {
            throw EndToEndError("dynbench \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        let lines = outcome.stdoutText.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? ["unparsed": String(line)]
        }
        return Run(status: status, lines: lines, stderr: outcome.stderrText)
    }

    /// A stand-in for the Box2D harness: a shell script that appends its arguments to `log` and prints one
    /// harness-style line with `ms_per_step_median` = `median`.
    static func fakeHarness(median: Double, in dir: URL) throws -> (script: URL, log: URL) {
        let script = dir.appendingPathComponent("fake-bench3")
        let log = dir.appendingPathComponent("fake-bench3.log")
        let text = """
            #!/bin/sh
            echo "$@" >> '\(log.path)'
            echo '{"engine":"box2d-fake","scene":"'$1'","size":'$2',"steps":'$3',"ms_per_step_median":\(median)}'
            """
        try text.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (script, log)
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("dynbench-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
