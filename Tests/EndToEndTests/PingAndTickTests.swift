import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `ping` gets a `pong` (never an `ack`), and `tick` only ever increases on a connection.
    @Suite(.serialized)
    struct PingAndTickTests {
        @Test(.timeLimit(.minutes(5))) func pongEchoesTAndIdAndNoAckFollows() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = client.join()
            try client.send(#"{"type":"ping","id":9,"t":123.5}"#)
            try client.send(#"{"type":"ping","id":"obj","t":{"a":[1,2]}}"#)
            try client.send(#"{"type":"ping"}"#)
            // Everything the three pings caused comes before the pong of a fourth sent after them.
            var pongs: [(JSONValue?, UInt64, MessageID?)] = []
            var acks = 0
            for line in try client.linesBeforePong() {
                let message = ServerMessage.decode(line)
                if case let .pong(t, tick, id)? = message { pongs.append((t, tick, id)) }
                if case .ack? = message { acks += 1 }
            }
            #expect(acks == 0, "a ping is never acked")
            #expect(pongs.count == 3)
            guard pongs.count == 3 else { return }
            #expect(pongs[0].0 == .number(123.5) && pongs[0].2 == .int(9))
            #expect(pongs[1].0 == .object([("a", .array([.number(1), .number(2)]))]) && pongs[1].2 == .string("obj"))
            #expect(pongs[2].0 == nil && pongs[2].2 == nil)
            #expect(pongs[0].1 <= pongs[1].1 && pongs[1].1 <= pongs[2].1)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func tickStrictlyIncreasesOnAConnectionAcrossASceneLoad() throws {
            let server = try ServerProcess(["--scene", "default"])
            let client = try server.connect()
            let first = try #require(client.join().snapshot)
            var ticks = [first.tick] + client.snapshots(for: 0.8).map(\.tick)
            _ = try #require(try client.ack(#"{"type":"scene","id":1,"name":"gravity"}"#, id: 1))
            ticks += client.snapshots(for: 0.8).map(\.tick)
            let pong = try #require(try client.currentTick())
            ticks += client.snapshots(for: 0.3).map(\.tick)
            // Each window spans 48, 48 and 18 ticks of world time: at 30 snapshots a second, 24 + 24 + 9.
            #expect(ticks.count >= 30, "\(ticks.count) snapshots")
            #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 }, "ticks: \(ticks)")
            #expect(pong > first.tick)
            withExtendedLifetime(server) {}
        }
    }
}
