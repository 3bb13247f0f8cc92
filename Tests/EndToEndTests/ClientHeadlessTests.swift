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

        @Test func tapMovesTheItemInThePrintedSnapshots() throws {
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
            let xs = decoded.compactMap { message -> Double? in
                guard case let .snapshot(snapshot)? = message else { return nil }
                return snapshot.bodies.first { $0.id == body }?.x
            }
            let first = try #require(xs.first)
            let last = try #require(xs.last)
            #expect(abs(first - 400) < 0.5)
            // About one second at 25 pt/s: well over 10 pt to the right, and never to the left.
            #expect(last - first > 10)
            #expect(last - first < 40)
            let velocities = decoded.compactMap { message -> Double? in
                guard case let .snapshot(snapshot)? = message else { return nil }
                return snapshot.bodies.first { $0.id == body }?.vx
            }
            #expect(velocities.contains { abs($0 - 25) < 2.5 })
        }

        @Test func everyServerLineIsPrintedAsOneJSONLineAndBadShortLinesAreSkipped() throws {
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

        @Test func noReconnectExitsNonZeroWhenTheServerGoesAway() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let port = String(server.port)
            let serverPID = server.pid
            // SIGKILL: the server vanishes without a bye, the harshest way to go.
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { kill(serverPID, SIGKILL) }
            // stdin stays busy (a long wait), so only the server's going away can end this run.
            let run = try HeadlessRun.run(["--port", port, "--headless", "--no-reconnect"], stdin: "wait 15000\n")
            #expect(run.exitCode == 1)
            #expect(run.stdoutLines.first.flatMap { ServerMessage.decode($0) }.map { if case .welcome = $0 { true } else { false } } == true)
            #expect(run.stderr.contains("server gone") || run.stderr.contains("connection lost"))
        }

        @Test func noReconnectExitsNonZeroWhenNothingListens() throws {
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
