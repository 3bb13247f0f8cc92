import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// What the server's log says at start after a `--state` restore (docs/STATE.md): the restored scene, not
    /// the `--scene` default, and times a person can read.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct ServerLogLineTests {
        @Test func aRestoredWorldIsLoggedWithItsOwnSceneAndAReadableTime() throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("dyn-log-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).state")
            defer { try? FileManager.default.removeItem(at: file) }
            let first = try ServerProcess(["--scene", "joints", "--state", file.path])
            // Some simulated time, so that the saved time is not a round number.
            let control = try first.connect()
            _ = control.join()
            _ = control.nextSnapshot(timeout: 5) { $0.tick > 20 }
            first.signal(SIGTERM)
            #expect(first.waitForExit(timeout: 5) == 0)
            let second = try ServerProcess(["--state", file.path])
            let restored = Reliability.eventually(timeout: 5) { second.stderr.contains("world 800x600, scene ") }
            #expect(restored, "\(second.stderr)")
            let log = second.stderr
            #expect(log.contains("restored state from \(file.path): scene joints"), "\(log)")
            #expect(log.contains("world 800x600, scene joints,"), "the start line names the restored scene: \(log)")
            // `time 0.35 s`, never `time 0.35000000000000003 s`: at most three decimals.
            let time = try #require(log.components(separatedBy: ", time ").dropFirst().first?.split(separator: " ").first)
            #expect(Double(time) != nil && (time.split(separator: ".").dropFirst().first?.count ?? 0) <= 3, "time \(time)")
        }
    }
}
