import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `checkpoint` and `restore` (docs/PROTOCOL.md, "Record, replay, checkpoints and the state hash"): the
    /// room's whole state kept in memory and put back exactly, for every client of the room.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct CheckpointTests {
        /// checkpoint → steps, taps and a spawn → restore: every body is back exactly (ids, poses, velocities,
        /// tick, time) for both clients (a keyframe for the compact one), and the same commands again give the
        /// same hashes, the same new id and the same snapshot bytes as the first time.
        @Test func restorePutsEveryBodyBackExactlyAndTheSameCommandsGiveTheSameHashes() throws {
            let server = try ServerProcess(["--held", "--scene", "default", "--no-http"])
            let client = try server.connect(), watcher = try server.connect()
            _ = try #require(client.join().scene)
            _ = try #require(watcher.join().scene)
            #expect(try watcher.ack(#"{"type":"subscribe","id":1,"snapshots":"compact"}"#, id: 1) != nil)
            let settled = try #require(try client.step(20, id: 1))
            let saved = try #require(try client.ack(.checkpoint(name: "start"), id: 2))
            #expect(saved.number("tick") == Double(settled.tick))
            let start = try #require(try client.stateHash(id: 3))

            func play(_ base: Int) throws -> (hash: String, spawned: Int, line: String) {
                #expect(try client.ack(#"{"type":"tap","id":\#(base),"x":380,"y":420}"#, id: base) != nil)
                _ = try client.step(25, id: base + 1)
                let spawn = try #require(try client.ack(
                    #"{"type":"spawn","id":\#(base + 2),"shape":"ellipse","width":30,"height":30,"x":300,"y":100,"vx":40}"#,
                    id: base + 2))
                let line = try #require(try client.stepLine(15, id: base + 3))
                let hash = try #require(try client.stateHash(id: base + 4)).hash
                return (hash, Int(try #require(spawn.number("body"))), line)
            }
            let first = try play(10)
            #expect(first.hash != start.hash)

            // As after a join: the scene, the state, then the ack.
            try client.send(ClientMessage(id: .int(20), .restore(name: "start")))
            let answer = client.readJoin(id: 20)
            #expect(answer.order == ["scene", "state", "ack"])
            let restored = try #require(answer.ack)
            #expect(restored.number("tick") == Double(settled.tick))
            #expect(abs(try #require(restored.number("time")) - settled.time) < 0.0005)
            let scene = try #require(answer.scene)
            #expect(scene.bodies.map(\.id) == settled.bodies.map(\.id), "the spawned body is gone")
            guard case .snapshot(let back)? = answer.state else {
                Issue.record("no snapshot after the restore")
                return
            }
            #expect(back.tick == settled.tick)
            #expect(back.time == settled.time)
            #expect(back.bodies.map(\.id) == settled.bodies.map(\.id))
            for (a, b) in zip(back.bodies, settled.bodies) {
                #expect([a.x, a.y, a.angle, a.vx, a.vy, a.av] == [b.x, b.y, b.angle, b.vx, b.vy, b.av], "body \(a.id)")
            }
            #expect(try client.stateHash(id: 21)?.hash == start.hash, "the hash says every bit is back")
            let keyframe = try #require(watcher.waitFor(timeout: 10) {
                if case .frame(let f) = $0 { f.isKeyframe && f.tick == settled.tick } else { false }
            }, "the compact client gets a keyframe of the restored state")
            if case .frame(let f) = keyframe { #expect(f.bodies.map(\.id) == settled.bodies.map(\.id)) }

            let again = try play(30)
            #expect(again.spawned == first.spawned, "the id counter was restored too")
            #expect(again.hash == first.hash)
            #expect(again.line == first.line, "the same snapshot, byte for byte")
            withExtendedLifetime(server) {}
        }

        /// Up to 16 names per room (a name taken again is replaced), unknown names and a 17th are `bad_value`,
        /// both need admin rights in the room while `hash` does not.
        @Test func sixteenNamesUnknownNamesAndAdminRights() throws {
            let server = try ServerProcess(["--held", "--scene", "default", "--admin-token", "Adm1n", "--no-http"])
            let admin = try server.connect(), player = try server.connect()
            _ = try #require(admin.join().scene)
            _ = try #require(player.join().scene)
            #expect(try admin.ack(#"{"type":"hello","id":1,"token":"Adm1n"}"#, id: 1)?.first { $0.0 == "admin" }?.1 == .bool(true))

            #expect(try player.errorCode(#"{"type":"checkpoint","id":2,"name":"a"}"#, id: 2) == .forbidden)
            #expect(try admin.ack(.checkpoint(name: "a"), id: 3) != nil)
            #expect(try player.errorCode(#"{"type":"restore","id":4,"name":"a"}"#, id: 4) == .forbidden)
            let asPlayer = try #require(try player.stateHash(id: 5), "hash needs no rights")
            #expect(try asPlayer.hash == admin.stateHash(id: 6)?.hash)

            for n in 2...16 {
                let fields = try #require(try admin.ack(.checkpoint(name: "c\(n)"), id: 10 + n))
                #expect(fields.number("checkpoints") == Double(n))
            }
            #expect(try admin.errorCode(#"{"type":"checkpoint","id":40,"name":"seventeenth"}"#, id: 40) == .badValue)
            #expect(try admin.ack(.checkpoint(name: "c5"), id: 41)?.number("checkpoints") == 16, "taking a name again replaces it")
            #expect(try admin.errorCode(#"{"type":"restore","id":42,"name":"nope"}"#, id: 42) == .badValue)
            #expect(try admin.errorCode(#"{"type":"checkpoint","id":43,"name":""}"#, id: 43) == .badValue)
            #expect(try admin.errorCode(#"{"type":"restore","id":44}"#, id: 44) == .badMessage, "name is required")
            #expect(try admin.ack(.restore(name: "a"), id: 45) != nil)
            withExtendedLifetime(server) {}
        }
    }
}
