import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Slow clients: one that writes a byte at a time (slowloris) and ones that never read. Neither
    /// may cost the other clients anything, nor the server unbounded memory; a stuck one is dropped.
    @Suite(.serialized)
    struct ReliabilitySlowClientTests {
        @Test(.timeLimit(.minutes(15))) func slowlorisCommandIsAnsweredAtItsNewlineAndOthersAreUnaffected() throws {
            // 100 ms per byte in `make test`, 1 s per byte under `make soak` (DYN_SLOWLORIS_SECONDS overrides).
            let interval = Reliability.seconds("DYN_SLOWLORIS_SECONDS", quick: 0.1, soak: 1.0)
            let server = try ServerProcess(["--scene", "default"])
            let slow = try server.connect()
            _ = try #require(slow.join().welcome)
            // It reads nothing while it trickles its line: without snapshots nothing piles up for it, so at a
            // byte a second (`make soak`) it is not dropped as too slow (docs/PROTOCOL.md, backpressure).
            _ = try #require(try slow.ack(#"{"type":"subscribe","snapshots":"none","id":1}"#, id: 1), "snapshots none")
            let other = try server.connect()
            _ = try #require(other.join().welcome)
            let bytes = Array(#"{"type":"ping","t":7,"id":"slow"}"#.utf8)
            var otherTicks: [UInt64] = []
            for (index, byte) in bytes.enumerated() {
                try slow.sendRaw([byte])
                usleep(UInt32(interval * 1_000_000))
                if index % 8 == 0 { otherTicks.append(try #require(try other.currentTick(timeout: 5), "the other client is answered")) }
            }
            #expect(slow.answer(to: .string("slow"), timeout: 0.3) == nil, "nothing is answered before the newline")
            try slow.sendRaw([0x0A])
            guard case let .pong(t, _, id)? = slow.answer(to: .string("slow"), timeout: 5) else {
                Issue.record("the slow command was not answered after its newline")
                return
            }
            #expect(t == .number(7) && id == .string("slow"))
            #expect(zip(otherTicks, otherTicks.dropFirst()).allSatisfy { $0 < $1 }, "the world kept stepping: \(otherTicks)")
            #expect(other.answersPing())
        }

        /// A server with `bodies` small items bouncing forever (no gravity, no item contacts, elasticity 1),
        /// so snapshots are large and never pause, and its admin client.
        static func busyWorld(bodies: Int, extra: [String] = []) throws -> (ServerProcess, LineClient) {
            let server = try ServerProcess(["--scene", "empty", "--rate", "100000", "--burst", "100000"] + extra)
            let admin = try server.connect()
            _ = try #require(admin.join().welcome)
            var lines = #"{"type":"gravity","magnitude":0}"# + "\n" + #"{"type":"collision","mode":"boundaries"}"# + "\n"
            for i in 0..<bodies {
                let x = 20 + (i % 38) * 20, y = 20 + (i / 38 % 28) * 20
                let vx = (i * 37) % 301 - 150, vy = (i * 53) % 301 - 150
                lines += #"{"type":"spawn","shape":"rect","width":10,"height":10,"x":\#(x),"y":\#(y),"vx":\#(vx),"vy":\#(vy),"elasticity":1,"id":\#(i + 1)}"# + "\n"
            }
            try admin.sendRaw(Array(lines.utf8))
            _ = try #require(admin.answer(to: .int(bodies), timeout: 30), "the world is built")
            return (server, admin)
        }

        @Test(.timeLimit(.minutes(15))) func neverReadingClientsCostBoundedMemoryAndOthersKeepTheirSnapshotRate() throws {
            // 1 000 bodies under `make soak` (release server); the debug build cannot step 1 000 bodies at
            // 60 Hz, so `make test` uses 250 (DYN_WORLD_BODIES overrides).
            let bodies = Reliability.count("DYN_WORLD_BODIES", quick: 250, soak: 1_000)
            let seconds = Reliability.seconds("DYN_STUCK_SECONDS", quick: 6, soak: 10)
            let (server, admin) = try Self.busyWorld(bodies: bodies, extra: ["--stall-timeout", "60"])
            let observer = try server.connect()
            _ = try #require(observer.join().snapshot)
            let baselineKB = server.probe.residentKB
            let descriptors = server.probe.openDescriptors
            let stuck = try (0..<20).map { _ in try LineClient(port: server.port, receiveBufferBytes: 4096) }
            let window = try ReliabilityFloodTests.observe(observer, taps: Int(seconds * 5)) { true } // a tap every 200 ms
            let grownKB = server.probe.residentKB - baselineKB
            print("never-reading: \(bodies) bodies, 20 stuck clients for \(seconds) s: RSS +\(grownKB) KB")
            #expect(!Reliability.measuresTiming || grownKB < 200 * 1024, "RSS grew \(grownKB) KB with 20 clients that never read")
            let rate = window.steadyRate.rate
            #expect(!Reliability.measuresTiming || rate >= 0.9 * 30, "observer snapshot rate \(rate)/s beside 20 clients that never read")
            // Behaviour, judged in `make test` too: every tap of the observer answered with an ack, its snapshots
            // kept coming with rising ticks, and the 20 stuck clients are still held (the stall timeout is 60 s).
            #expect(window.sent > 0 && window.acked == window.sent && window.refused.isEmpty,
                    "\(window.sent) taps, \(window.acked) acked, refused: \(window.refused)")
            #expect(window.ticks.count >= 2 && zip(window.ticks, window.ticks.dropFirst()).allSatisfy { $0 < $1 },
                    "the observer's snapshots kept coming: ticks \(window.ticks.prefix(20))")
            #expect(server.probe.openDescriptors == descriptors + 20, "the 20 stuck connections are still open")
            #expect(admin.answersPing())
            for client in stuck.prefix(3) {
                #expect(client.nextLine(timeout: 5)?.hasPrefix(#"{"type":"welcome""#) == true, "a stuck client was welcomed")
            }
        }

        @Test(.timeLimit(.minutes(15))) func aStuckClientIsDroppedAfterTheStallTimeout() throws {
            let (server, _) = try Self.busyWorld(bodies: 350, extra: ["--stall-timeout", "2"])
            let probe = server.probe
            let observer = try server.connect()
            _ = try #require(observer.join().snapshot)
            let before = probe.openDescriptors
            let stuck = try (0..<3).map { _ in try LineClient(port: server.port, receiveBufferBytes: 4096) }
            #expect(Reliability.eventually(timeout: 2) { probe.openDescriptors == before + 3 })
            // The kernel buffers fill first; then 2 s without write progress drops each of them.
            let dropped = Reliability.eventually(timeout: Reliability.isSanitized ? 60 : 15) {
                _ = observer.nextSnapshot(timeout: 0.05)
                return probe.openDescriptors == before
            }
            #expect(dropped, "descriptors \(probe.openDescriptors), \(before) before the stuck clients")
            for client in stuck {
                let lines = client.linesUntilClosed(timeout: 10)
                #expect(client.isClosedByPeer, "the server closed the stuck connection")
                #expect(lines.first.map { $0.hasPrefix(#"{"type":"welcome""#) } == true)
            }
            #expect(observer.answersPing(), "the observer, who reads, is still served")
        }
    }
}
