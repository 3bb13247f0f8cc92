import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `dynclient --headless` against a real `dynserver`: server lines out, short syntax in.
    @Suite(.serialized) struct ClientHeadlessTests {
        /// The box the script spawns: 100 x 100 at (400, 300) in a world without gravity.
        static let setup = """
            {"type":"gravity","magnitude":0,"id":"g"}
            {"type":"spawn","shape":"rect","width":100,"height":100,"x":400,"y":300,"id":"box"}
            wait 200
            """

        private func messages(_ run: HeadlessRun) -> [ServerMessage?] { run.stdoutLines.map { ServerMessage.decode($0) } }

        private func spawnedBody(_ messages: [ServerMessage?]) -> Int? {
            for case let .ack(id, fields)? in messages where id == .string("box") {
                return fields.first { $0.0 == "body" }?.1.number.map { Int($0) }
            }
            return nil
        }

        /// With no linger at all, every command sent before stdin ended is answered before the client exits
        /// (its closing ping comes back after them), and that ping's pong is not printed.
        @Test(.timeLimit(.minutes(5))) func everyCommandIsAnsweredBeforeTheClientExits() throws {
            let server = try ServerProcess(["--scene", "default", "--held"])
            let steps = (1...20).map { "step 5 id=\($0)" }.joined(separator: "\n")
            let run = try HeadlessRun.run(["--port", String(server.port), "--headless", "--linger", "0"], stdin: steps + "\n")
            #expect(run.exitCode == 0)
            let acked = messages(run).compactMap { message -> MessageID? in
                if case let .ack(id, _)? = message { return id } else { return nil }
            }
            #expect(acked == (1...20).map { .number(String($0)) }, "every step acked, in order: \(acked)")
            #expect(!run.stdoutLines.contains { $0.contains("dynclient-end") }, "the closing ping's pong is not printed")
        }

        @Test(.timeLimit(.minutes(5))) func tapMovesTheItemInThePrintedSnapshots() throws {
            let server = try ServerProcess(["--scene", "empty"])
            // An instantaneous tap 50 pt right of the centre: magnitude 0.25, a velocity change of 25 pt/s.
            let run = try HeadlessRun.run(["--port", String(server.port), "--headless", "--linger", "300"],
                                          stdin: Self.setup + "\ntap 450 300 instantaneous\nwait 1000\n")
            #expect(run.exitCode == 0)
            let decoded = messages(run)
            guard case .welcome? = decoded.first else {
                Issue.record("the first line must be the welcome: \(run.stdoutLines.first ?? "nothing")")
                return
            }
            let body = try #require(spawnedBody(decoded))
            // (world time, x, vx) of the box in every printed snapshot.
            let track = decoded.compactMap { message -> (time: Double, x: Double, vx: Double)? in
                guard case let .snapshot(snapshot)? = message, let state = snapshot.body(body) else { return nil }
                return (snapshot.time, state.x, state.vx)
            }
            let first = try #require(track.first)
            let last = try #require(track.last)
            #expect(abs(first.x - 400) < 0.5)
            #expect(track.contains { abs($0.vx - 25) < 2.5 }, "the tap gave the box 25 pt/s")
            // Never to the left, and as far to the right as its velocity carried it over the world time the
            // snapshots span (measured in ticks of world time, not by the reader's clock).
            #expect(zip(track, track.dropFirst()).allSatisfy { $1.x >= $0.x - 1e-9 }, "never to the left")
            let carried = zip(track, track.dropFirst()).reduce(0.0) { sum, pair in
                sum + (pair.0.vx + pair.1.vx) / 2 * (pair.1.time - pair.0.time)
            }
            #expect(last.time > first.time && carried > 1, "the box moved in world time: \(carried) pt")
            #expect(abs((last.x - first.x) - carried) < 1 + 0.05 * carried, "moved \(last.x - first.x) pt, velocity over time says \(carried)")
        }

        @Test(.timeLimit(.minutes(5))) func everyServerLineIsPrintedAsOneJSONLineAndBadShortLinesAreSkipped() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let run = try HeadlessRun.run(["--port", String(server.port), "--headless", "--linger", "200"],
                                          stdin: "jump 1 2\ntap 1\n{\"type\":\"ping\",\"t\":5,\"id\":9}\nsnap 999 1 2\n")
            #expect(run.exitCode == 0)
            #expect(run.stdoutLines.allSatisfy { ServerMessage.decode($0) != nil })
            #expect(run.stderr.contains("unknown command \"jump\""))
            #expect(run.stderr.contains("tap: 1 argument is not what it takes; expected tap X Y"))
            let decoded = messages(run)
            #expect(decoded.contains { $0 == .pong(t: .number(5), tick: 0, id: .number("9")) || {
                if case let .pong(t, _, id)? = $0 { return t == .number(5) && id == .number("9") }
                return false
            }($0) })
            #expect(decoded.contains {
                if case let .error(error)? = $0 { return error.code == .unknownBody }
                return false
            })
        }

        @Test(.timeLimit(.minutes(5))) func noReconnectExitsNonZeroWhenTheServerGoesAway() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let port = String(server.port)
            let serverPID = server.pid
            // SIGKILL once the client is counted (an observer and the client: 2): the server vanishes without
            // a bye, the harshest way to go, after the client got its welcome.
            try server.whenClientsReach(2) { kill(serverPID, SIGKILL) }
            // stdin stays busy (a long wait), so only the server's going away can end this run.
            let run = try HeadlessRun.run(["--port", port, "--headless", "--no-reconnect"], stdin: "wait 15000\n")
            #expect(run.exitCode == 1)
            #expect(run.stdoutLines.first.flatMap { ServerMessage.decode($0) }.map { if case .welcome = $0 { true } else { false } } == true)
            #expect(run.stderr.contains("server gone") || run.stderr.contains("connection lost"))
        }

        @Test(.timeLimit(.minutes(5))) func noReconnectExitsNonZeroWhenNothingListens() throws {
            let port: UInt16
            do {
                let server = try ServerProcess(["--scene", "empty"])
                port = server.port
            }
            let run = try HeadlessRun.run(["--port", String(port), "--headless", "--no-reconnect"], stdin: "")
            #expect(run.exitCode == 1)
            #expect(run.stdoutLines.isEmpty)
            #expect(run.stderr.contains("ECONNREFUSED"))
        }
    }
}
