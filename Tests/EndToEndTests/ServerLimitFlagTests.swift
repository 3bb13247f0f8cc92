import Foundation
import Testing

extension EndToEnd {
    /// A limit flag out of range stops dynserver before it listens, naming the flag and its range (not a
    /// generic "limits must be positive": 1000 is positive, and the smallest backlog is 64 KiB).
    @Suite(.timeLimit(.minutes(1)))
    struct ServerLimitFlagTests {
        @Test(arguments: [
            (["--max-outbox-bytes", "1000"], "--max-outbox-bytes must be >= 65536"),
            (["--stall-timeout", "0"], "--stall-timeout must be > 0 seconds"),
            (["--max-bodies", "0"], "--max-bodies must be >= 1"),
            (["--send-buffer-bytes", "100"], "--send-buffer-bytes must be >= 1024"),
        ])
        func aLimitOutOfRangeNamesTheFlag(flag: [String], message: String) throws {
            let run = try ChildProcess.run(ServerProcess.dynserverPath, ["--port", "0", "--no-http"] + flag, timeout: 30)
            #expect(run.status != nil && run.status != 0, "dynserver exited with \(String(describing: run.status))")
            #expect(run.stderrText.contains(message), "stderr: \(run.stderrText)")
        }
    }
}
