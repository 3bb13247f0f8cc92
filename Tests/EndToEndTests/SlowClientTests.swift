import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Backpressure: a client that never reads costs the others nothing, gets only the newest snapshot when
    /// it catches up, and never loses a reliable message (`welcome`, `scene`).
    @Suite(.serialized)
    struct SlowClientTests {
        static let bodyCount = 1000

        @Test(.timeLimit(.minutes(15))) func neverReadingClientDoesNotSlowAReadingOne() throws {
            // 30 Hz ticks and snapshots: a debug server then spends well under a core on this world.
            let server = try ServerProcess(["--scene", "empty", "--rate", "100000", "--burst", "100000",
                                            "--tick-hz", "30", "--snapshot-hz", "30"])
            let reader = try server.connect()
            _ = try #require(reader.join().scene)
            try fillWorld(reader)

            let baseline = reader.snapshotTicks(for: 3)
            #expect(!Reliability.measuresTiming || baseline.count >= 30, "only \(baseline.count) snapshots in 3 s before any slow client")

            // A tiny receive window fills after a few snapshots of ~70 KB; from then on it never drains.
            let sleeper = try LineClient(port: server.port, receiveBufferBytes: 4096)
            let beside = reader.snapshotTicks(for: 3)
            // Behaviour always: snapshots keep coming beside the stalled client. The rate (make soak only): 80%,
            // since the window also holds the sleeper's join (a full 1000-body scene), and the debug server
            // shares two cores with the rest of the suite; a loop blocked by the sleeper would give far fewer.
            #expect(!Reliability.measuresTiming || Double(beside.count) >= 0.8 * Double(baseline.count),
                    "\(beside.count) snapshots beside a stalled client, \(baseline.count) without one")
            #expect(beside.count >= 2 && zip(beside, beside.dropFirst()).allSatisfy { $0 < $1 })

            // Catching up: the reliable lines are all there, then the snapshots the kernel already held, then
            // the newest one: everything the server still had queued in between was replaced, not kept.
            let now = try #require(beside.last)
            let joined = sleeper.join()
            #expect(joined.welcome != nil)
            #expect(joined.scene?.bodies.count == Self.bodyCount)
            let caughtUp = [try #require(joined.snapshot?.tick)] + sleeper.snapshotTicks(for: 10) { $0 > now }
            let first = try #require(caughtUp.first), last = try #require(caughtUp.last)
            #expect(last > now, "fresh snapshots follow")
            #expect(caughtUp.count < Int(last - first) * 3 / 4, "\(caughtUp.count) snapshots for ticks \(first)...\(last): none dropped")
            let largestGap = zip(caughtUp, caughtUp.dropFirst()).map { $1 - $0 }.max() ?? 0
            #expect(largestGap > 30, "a jump of over a second of ticks where stale snapshots were replaced: \(caughtUp)")
            #expect(!sleeper.isClosedByPeer, "still connected: it was slow for less than the stall timeout")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(15))) func clientStuckLongerThanTheStallTimeoutIsDisconnected() throws {
            let server = try ServerProcess(["--scene", "empty", "--rate", "100000", "--burst", "100000",
                                            "--tick-hz", "30", "--snapshot-hz", "30", "--stall-timeout", "1"])
            let reader = try server.connect()
            _ = try #require(reader.join().scene)
            try fillWorld(reader)
            let sleeper = try LineClient(port: server.port, receiveBufferBytes: 4096)
            // The kernel buffers a few MB first; once it is full the outbox makes no progress, and after 1 s of
            // that (checked every 250 ms) the client is dropped. The reader keeps reading all along.
            var streamed = 0
            let deadline = Date().addingTimeInterval(20)
            while !server.stderr.contains("client 2 dropped: stuck"), Date() < deadline {
                streamed += reader.snapshotTicks(for: 0.5).count
            }
            #expect(server.stderr.contains("client 2 dropped: stuck: no write progress"), "dropped with a logged reason")
            #expect(streamed >= (Reliability.measuresTiming ? 20 : 1), "the reader kept receiving snapshots (\(streamed))")
            let lines = sleeper.linesUntilClosed(timeout: 15)
            #expect(sleeper.isClosedByPeer, "the stuck client's connection was closed")
            #expect(lines.first?.hasPrefix(#"{"type":"welcome""#) == true)
            #expect(try reader.currentTick() != nil, "the reader is still served")
            #expect(!server.stderr.contains("client 1 dropped"))
        }

        /// Spawns `bodyCount` items: all anchored but one that bounces between the walls forever (no gravity,
        /// elastic, colliding with the boundaries only), so the world never pauses and every snapshot carries
        /// 1000 bodies (~70 KB) while the physics stays cheap enough for a debug build on a shared machine.
        private func fillWorld(_ client: LineClient) throws {
            _ = try #require(try client.ack(#"{"type":"gravity","id":1,"magnitude":0}"#, id: 1))
            _ = try #require(try client.ack(#"{"type":"collision","id":2,"mode":"boundaries"}"#, id: 2))
            var batch = #"{"type":"spawn","id":999,"shape":"rect","width":8,"height":8,"x":400,"y":300,"vx":300,"vy":170,"elasticity":1}"# + "\n"
            for i in 1..<Self.bodyCount {
                let x = 20 + (i % 40) * 19, y = 20 + (i / 40) * 22
                batch += #"{"type":"spawn","id":\#(1000 + i),"shape":"rect","width":8,"height":8,"x":\#(x),"y":\#(y),"anchored":true}"# + "\n"
            }
            try client.sendRaw(Array(batch.utf8))
            let last = 1000 + Self.bodyCount - 1
            guard case .ack? = client.answer(to: .int(last), timeout: 30) else {
                Issue.record("the last spawn was not acked")
                return
            }
            #expect(client.nextSnapshot(timeout: 5) { $0.bodies.count == Self.bodyCount } != nil)
        }
    }
}
