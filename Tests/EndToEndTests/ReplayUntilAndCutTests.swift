import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `dynserver replay` as a user says it (docs/PROTOCOL.md, "Replay"): `--until T` stands at tick T (the
    /// lines up to T, then the ticks up to T), and a recording whose last line was cut short (a crash
    /// mid-write) replays up to the cut instead of failing whole.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct ReplayUntilAndCutTests {
        @Test func untilStandsAtTheTickAsked() throws {
            let dir = try ScratchDirectory()
            _ = try RecordReplayTests.recordSession(into: dir)
            let path = dir.path + "/main.ndjson"
            let lines = try dir.jsonLines("main.ndjson").dropFirst()
            // Two hash lines 10 ticks apart (the real-time stretch, --hash-every 10): nothing happens between.
            let pairs = zip(lines, lines.dropFirst()).compactMap { a, b -> (Double, Double)? in
                guard a["hash"] != nil, b["hash"] != nil, let ta = a["tick"]?.number, let tb = b["tick"]?.number, tb - ta >= 5 else { return nil }
                return (ta, tb)
            }
            let (from, to) = try #require(pairs.first, "no quiet stretch in the recording")
            let until = UInt64(from) + 4
            let run = try ReplayRun.run([path, "--validate", "--until", String(until)])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let result = try RecordReplayTests.summary(run)
            #expect(result.tick == until, "--until \(until) stands at tick \(until) (the lines are at \(from) and \(to))")
            #expect(result.divergence == .null)
            // Through the next hash line: the ticks run to reach T are the live room's ticks.
            let through = try RecordReplayTests.summary(try ReplayRun.run([path, "--validate", "--until", String(UInt64(to))]))
            #expect(through.tick == UInt64(to) && through.divergence == .null)
        }

        @Test func aRecordingCutMidLineReplaysUpToTheCut() throws {
            let dir = try ScratchDirectory()
            _ = try RecordReplayTests.recordSession(into: dir)
            let path = dir.path + "/main.ndjson"
            let whole = try RecordReplayTests.summary(try ReplayRun.run([path, "--validate"]))
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var lines = text.split(separator: "\n").map(String.init)
            // Cut inside the last line: what a recorder killed mid-write leaves.
            let last = lines.removeLast()
            let lastIsCommand = last.contains(#""command":"#)
            let cutPath = dir.path + "/cut.ndjson"
            try (lines.joined(separator: "\n") + "\n" + last.prefix(last.count / 2)).write(toFile: cutPath, atomically: true, encoding: .utf8)
            let run = try ReplayRun.run([cutPath, "--validate"])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            #expect(run.stderr.contains("cut.ndjson:\(lines.count + 1): a partial last line"), "\(run.stderr)")
            let result = try RecordReplayTests.summary(run)
            #expect(result.commands == whole.commands - (lastIsCommand ? 1 : 0))
            #expect(result.divergence == .null)
            // A broken line that is not the last one is still an error naming it.
            var broken = text.split(separator: "\n").map(String.init)
            broken[2] = String(broken[2].prefix(broken[2].count / 2))
            let brokenPath = dir.path + "/broken.ndjson"
            try (broken.joined(separator: "\n") + "\n").write(toFile: brokenPath, atomically: true, encoding: .utf8)
            let refused = try ReplayRun.run([brokenPath])
            #expect(refused.status == 2 && refused.stderr.contains("broken.ndjson:3"), "\(refused.stderr)")
        }
    }
}
