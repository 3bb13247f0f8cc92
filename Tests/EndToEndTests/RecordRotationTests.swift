import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `--record-max-mb` (docs/PROTOCOL.md, "Recordings"): a recording past its cap moves to `ROOM.ndjson.1` and
    /// a new one starts; each file replays on its own without divergence, and each header names the build.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct RecordRotationTests {
        @Test func aRecordingPastItsCapRotatesAndBothHalvesReplay() throws {
            let dir = try ScratchDirectory()
            let server = try ServerProcess(["--held", "--scene", "empty", "--record", dir.path, "--hash-every", "10",
                                            "--record-max-mb", "0.002", "--no-http"])
            let client = try server.connect()
            _ = client.join()
            for id in 1...30 {
                #expect(try client.ack(#"{"type":"step","id":\#(id),"ticks":10}"#, id: id) != nil)
            }
            let hash = try #require(try client.stateHash(id: 99))
            withExtendedLifetime(server) {}
            let current = dir.path + "/main.ndjson", previous = current + ".1"
            #expect(FileManager.default.fileExists(atPath: previous), "rotated to main.ndjson.1")
            for path in [previous, current] {
                let header = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first)
                #expect(try JSONParser.parse(Array(header.utf8))["build"]?.string == "dynserver \(DynVersion.current)")
                let run = try ReplayRun.run([path, "--validate"])
                #expect(run.status == 0, "\(path): \(run.stdout) \(run.stderr)")
            }
            // The newest file ends where the live room stands.
            let last = try RecordReplayTests.summary(try ReplayRun.run([current, "--validate"]))
            #expect(last.tick == hash.tick && last.hash == hash.hash)
        }
    }
}
