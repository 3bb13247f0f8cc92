import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `--record DIR` and `dynserver replay` (docs/PROTOCOL.md, "Recordings" and "Replay"): a session of two
    /// clients recorded by a real server replays without divergence, a tampered recording diverges at the
    /// first hash after the change, `--until` stops early, and `--serve` plays it to a client in room `replay`.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct RecordReplayTests {
        /// A recorded session: drags, taps, gravity, a field, an attachment and a pin joint, a scene load, a spawn, and a stretch of
        /// real-time ticks between `resume` and `pause`. Returns the live room's final tick and hash.
        static func recordSession(into dir: ScratchDirectory) throws -> (tick: UInt64, hash: String) {
            let server = try ServerProcess(["--held", "--scene", "default", "--record", dir.path, "--hash-every", "10", "--no-http"])
            let a = try server.connect(), b = try server.connect()
            let start = try #require(a.join().snapshot)
            _ = try #require(b.join().scene)
            #expect(try b.ack(#"{"type":"hello","id":1,"name":"bea"}"#, id: 1) != nil)
            let target = try #require(start.bodies.last)
            let partner = try #require(start.bodies.dropLast().last)
            var id = 10
            func ok(_ client: LineClient, _ line: String) throws {
                id += 1
                let withID = line.replacingOccurrences(of: "{\"type\"", with: "{\"id\":\(id),\"type\"")
                #expect(try client.ack(withID, id: id) != nil, "\(line)")
            }
            try ok(a, #"{"type":"step","ticks":10}"#)
            try ok(b, #"{"type":"drag","phase":"begin","x":\#(target.x),"y":\#(target.y),"body":\#(target.id)}"#)
            try ok(b, #"{"type":"drag","phase":"move","x":\#(target.x + 40),"y":\#(target.y - 60)}"#)
            try ok(a, #"{"type":"step","ticks":15}"#)
            try ok(b, #"{"type":"drag","phase":"move","x":\#(target.x + 80),"y":\#(target.y - 90)}"#)
            try ok(a, #"{"type":"step","ticks":10}"#)
            try ok(b, #"{"type":"drag","phase":"end"}"#)
            try ok(a, #"{"type":"tap","x":380,"y":420}"#)
            try ok(a, #"{"type":"step","ticks":10}"#)
            try ok(b, #"{"type":"gravity","angle":1.2,"magnitude":0.8}"#)
            try ok(a, #"{"type":"field","kind":"vortex","x":400,"y":300,"strength":3,"region":{"radius":200}}"#)
            try ok(b, #"{"type":"attach","body":\#(target.id),"anchor":{"x":400,"y":80}}"#)
            let mid = ((target.x + partner.x) / 2, (target.y + partner.y) / 2)
            try ok(a, #"{"type":"attach","body":\#(partner.id),"to_body":\#(target.id),"kind":"pin","point":{"x":\#(mid.0),"y":\#(mid.1)}}"#)
            try ok(a, #"{"type":"step","ticks":20}"#)
            try ok(a, #"{"type":"scene","name":"snap"}"#)
            try ok(b, #"{"type":"spawn","shape":"rect","width":30,"height":30,"x":200,"y":100,"vx":50}"#)
            try ok(a, #"{"type":"step","ticks":10}"#)
            // Ticks on the server's own clock between resume and pause: recorded at the ticks they ran.
            try ok(a, #"{"type":"resume"}"#)
            let resumed = try #require(b.nextSnapshot { !$0.held }?.tick)
            _ = try #require(b.nextSnapshot(timeout: 10) { $0.tick >= resumed + 30 })
            try ok(a, #"{"type":"pause"}"#)
            try ok(b, #"{"type":"tap","x":300,"y":300}"#)
            try ok(a, #"{"type":"step","ticks":7}"#)
            let final = try #require(try a.stateHash(id: 99))
            withExtendedLifetime(server) {}
            return final
        }

        static func summary(_ run: ReplayRun) throws -> (ticks: Double, commands: Double, hashes: Double,
                                                          divergence: JSONValue, tick: UInt64, hash: String) {
            let line = try #require(run.summary, "stdout: \(run.stdout) stderr: \(run.stderr)")
            return (try #require(line["ticks"]?.number), try #require(line["commands"]?.number),
                    try #require(line["hashes_checked"]?.number), try #require(line["first_divergence"]),
                    UInt64(try #require(line["tick"]?.number)), try #require(line["hash"]?.string))
        }

        @Test func recordedSessionReplaysWithoutDivergenceAndEndsInTheLiveState() throws {
            let dir = try ScratchDirectory()
            let live = try Self.recordSession(into: dir)
            let lines = try dir.jsonLines("main.ndjson")
            let header = try #require(lines.first)
            #expect(header["type"]?.string == "recording")
            #expect(header["version"]?.number == 1)
            #expect(header["room"]?.string == "main")
            #expect(header["tick_hz"]?.number == 60)
            #expect(header["state"]?["format"]?.string == "dynserver-state")
            let commands = lines.dropFirst().filter { $0["command"] != nil }
            let hashes = lines.dropFirst().filter { $0["hash"] != nil }
            #expect(commands.count == 21, "every command that changed the room, ping and hash not among them")
            #expect(commands.contains { $0["name"]?.string == "bea" && $0["command"]?["type"]?.string == "drag" })
            #expect(hashes.count >= 10)

            let run = try ReplayRun.run([dir.path + "/main.ndjson", "--validate"])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let result = try Self.summary(run)
            #expect(result.divergence == .null)
            #expect(result.commands == Double(commands.count))
            #expect(result.hashes == Double(hashes.count + 1), "every hash line and the header's")
            #expect(result.tick == live.tick)
            #expect(result.hash == live.hash, "the replay ends exactly where the live room did")
        }

        @Test func tamperedRecordingDivergesAtTheFirstHashAfterTheChangeAndUntilStopsEarly() throws {
            let dir = try ScratchDirectory()
            _ = try Self.recordSession(into: dir)
            let path = dir.path + "/main.ndjson"
            var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            let tap = try #require(lines.firstIndex { $0.contains(#""type":"tap","x":380"#) })
            lines[tap] = lines[tap].replacingOccurrences(of: #""x":380"#, with: #""x":381"#)
            let firstHashAfter = try #require(lines[(tap + 1)...].first { $0.contains(#""hash":"#) })
            let expectedTick = try #require(try JSONParser.parse(Array(firstHashAfter.utf8))["tick"]?.number)
            let tampered = dir.path + "/tampered.ndjson"
            try (lines.joined(separator: "\n") + "\n").write(toFile: tampered, atomically: true, encoding: .utf8)

            let run = try ReplayRun.run([tampered, "--validate"])
            #expect(run.status == 1)
            let result = try Self.summary(run)
            #expect(result.divergence["tick"]?.number == expectedTick)
            #expect(result.divergence["expected"]?.string != result.divergence["got"]?.string)
            let unchecked = try ReplayRun.run([tampered])
            #expect(unchecked.status == 0, "without --validate a divergence is reported, not an exit status")

            // --until: everything up to the tick before the tap still agrees.
            let tapTick = try #require(try JSONParser.parse(Array(lines[tap].utf8))["tick"]?.number)
            let untilTick = UInt64(tapTick) - 1
            let early = try ReplayRun.run([tampered, "--validate", "--until", String(untilTick)])
            #expect(early.status == 0, "\(early.stdout)")
            let partial = try Self.summary(early)
            #expect(partial.divergence == .null)
            let hashesUpTo = lines.dropFirst().filter {
                $0.contains(#""hash":"#) && (try? JSONParser.parse(Array($0.utf8))["tick"]?.number).flatMap { $0 } ?? .infinity <= Double(untilTick)
            }
            #expect(partial.hashes == Double(hashesUpTo.count + 1))
            #expect(partial.ticks < result.ticks)
        }

        /// Checkpoints and restores replay too, the clock going back included; a drag kept in a checkpoint
        /// whose client has left ends at the restore, and the recording says so.
        @Test func restoresReplayExactlyAndADragWhoseClientLeftEndsAtTheRestore() throws {
            let dir = try ScratchDirectory()
            let server = try ServerProcess(["--held", "--scene", "default", "--record", dir.path, "--hash-every", "5", "--no-http"])
            let a = try server.connect(), b = try server.connect()
            let start = try #require(a.join().snapshot)
            _ = try #require(b.join().scene)
            let box = try #require(start.bodies.last)
            #expect(try b.ack(.drag(phase: .begin, x: box.x, y: box.y, body: box.id), id: 1) != nil)
            #expect(try b.ack(.drag(phase: .move, x: box.x + 50, y: box.y - 50, body: nil), id: 2) != nil)
            #expect(try a.ack(.checkpoint(name: "c"), id: 3) != nil)
            _ = try a.step(12, id: 4)
            b.close()
            // Wait (without stepping) until the server saw b leave: `rooms` counts main's clients.
            let deadline = Date().addingTimeInterval(10)
            var clients = 2
            var probe = 100
            while clients != 1, Date() < deadline {
                probe += 1
                let list = RoomEntry.list(try a.ack(.rooms, id: probe)?.first { $0.0 == "rooms" }?.1)
                clients = list?.first { $0.name == "main" }?.clients ?? clients
            }
            #expect(clients == 1)
            let afterLeave = try #require(try a.step(3, id: 5))
            #expect(afterLeave.drags.isEmpty, "the drag ended when its client left")
            #expect(try a.ack(.restore(name: "c"), id: 6) != nil)
            let restored = try #require(try a.step(8, id: 7))
            #expect(restored.drags.isEmpty, "the restored drag's client is gone: it ended at the restore")
            #expect(try a.ack(#"{"type":"tap","id":8,"x":400,"y":300}"#, id: 8) != nil)
            _ = try a.step(11, id: 9)
            let live = try #require(try a.stateHash(id: 10))

            let lines = try dir.jsonLines("main.ndjson")
            let drags = lines.compactMap { $0["command"]?["type"]?.string == "drag" ? $0["command"]?["phase"]?.string : nil }
            #expect(drags == ["begin", "move", "end", "end"], "begin, move, the leave, the restore")
            let run = try ReplayRun.run([dir.path + "/main.ndjson", "--validate"])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            let result = try Self.summary(run)
            #expect(result.divergence == .null)
            let hashLines = lines.filter { $0["hash"] != nil && $0["type"] == nil }
            #expect(hashLines.count >= 4)
            #expect(result.hashes == Double(hashLines.count + 1))
            #expect(result.tick == live.tick)
            #expect(result.hash == live.hash)
            withExtendedLifetime(server) {}
        }

        @Test func aFileThatIsNotARecordingIsRefusedWithTheReason() throws {
            let dir = try ScratchDirectory()
            let cases = [
                ("state.ndjson", #"{"format":"dynserver-state","version":1}"#, "not a recording header"),
                ("garbage.ndjson", "{not json", "not JSON"),
                ("badline.ndjson", #"{"type":"recording","version":1,"room":"main","tick_hz":60,"world":{"width":800,"height":600},"state":{}}"# + "\n" + #"{"tick":3,"client":1,"command":{"type":"warp"}}"#, "not a valid command"),
            ]
            for (name, text, reason) in cases {
                try text.write(toFile: dir.path + "/" + name, atomically: true, encoding: .utf8)
                let run = try ReplayRun.run([dir.path + "/" + name, "--validate"])
                #expect(run.status == 2, "\(name)")
                #expect(run.stderr.contains(reason), "\(name): \(run.stderr)")
                #expect(run.stdout.isEmpty)
            }
            let missing = try ReplayRun.run([dir.path + "/none.ndjson"])
            #expect(missing.status == 2 && missing.stderr.contains("no such file"))
        }

        @Test func servedReplayIsWatchedByAClientInRoomReplay() throws {
            let dir = try ScratchDirectory()
            let live = try Self.recordSession(into: dir)
            let server = try ServerProcess(["--no-http"], leading: ["replay", dir.path + "/main.ndjson", "--serve", "--speed", "2"])
            let watcher = try server.connect()
            _ = try #require(watcher.join().scene)
            let joined = try watcher.joinRoom("replay", id: 1)
            #expect(joined.room == "replay")
            guard case .snapshot(let first)? = joined.state else {
                Issue.record("no state after joining replay")
                return
            }
            var last = first
            var ticks: Set<UInt64> = [first.tick]
            while !(last.tick == live.tick && last.held),
                  let next = watcher.nextSnapshot(timeout: 30, where: { _ in true }) {
                last = next
                ticks.insert(next.tick)
            }
            #expect(last.tick == live.tick && last.held, "the watcher sees the recording's last state")
            #expect(ticks.count > 5, "the watcher saw it play (\(ticks.count) ticks seen)")
            #expect(watcher.lastScene?.name == "snap", "the recording's scene load reached the watcher")
            #expect(try watcher.stateHash(id: 2)?.hash == live.hash, "the served replay ends exactly where the live room did")
            #expect(try watcher.errorCode(#"{"type":"tap","id":3,"x":300,"y":300}"#, id: 3) == .forbidden, "watchers only watch")
            withExtendedLifetime(server) {}
        }

        /// A watcher of a served replay that subscribes to contacts gets the contact messages of the ticks the
        /// replay runs, as it would live: boxes spawned in a running room land on the floor in the replay too.
        @Test func servedReplaySendsContactsToAWatcherThatSubscribes() throws {
            let dir = try ScratchDirectory()
            var landed: UInt64 = 0
            do {
                let server = try ServerProcess(["--scene", "empty", "--record", dir.path, "--hash-every", "10", "--no-http"])
                let client = try server.connect()
                _ = client.join()
                // A second into the recording, so that the replay's watcher has subscribed before they fall.
                let start = try #require(client.nextSnapshot(timeout: 10) { $0.tick >= 60 }?.tick)
                for k in 0..<3 {
                    #expect(try client.ack(#"{"type":"spawn","id":\#(k + 1),"shape":"rect","width":30,"height":30,"x":\#(300 + 60 * k),"y":520}"#,
                                           id: k + 1) != nil)
                }
                landed = try #require(client.nextSnapshot(timeout: 10) { $0.tick >= start + 90 }?.tick)
                withExtendedLifetime(server) {}
            }
            let server = try ServerProcess(["--no-http"], leading: ["replay", dir.path + "/main.ndjson", "--serve"])
            let watcher = try server.connect()
            _ = try #require(watcher.join().scene)
            #expect(try watcher.joinRoom("replay", id: 1).room == "replay")
            _ = try #require(try watcher.ack(#"{"type":"subscribe","id":2,"contacts":true}"#, id: 2))
            var began: [ContactReport] = []
            var tick: UInt64 = 0
            while tick < landed, let message = watcher.next(timeout: 10) {
                switch message {
                case .contact(let report) where report.phase == .began: began.append(report)
                case .snapshot(let snapshot): tick = snapshot.tick
                default: break
                }
            }
            #expect(tick >= landed, "the watcher saw the replay reach tick \(landed) (last \(tick))")
            let floor = began.filter { if case .boundary = $0.partner { return true } else { return false } }
            #expect(floor.count >= 3, "each box's landing reached the watcher: \(began.count) began, \(floor.count) on a boundary")
            withExtendedLifetime(server) {}
        }
    }
}
