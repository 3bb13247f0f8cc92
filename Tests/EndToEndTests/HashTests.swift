import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `hash` (docs/PROTOCOL.md, "Record, replay, checkpoints and the state hash"): the room's whole simulation
    /// state as 16 hex digits, equal exactly when the states are equal. Held worlds (`--held` + `step`), so two
    /// servers take exactly the same steps.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct HashTests {
        /// The same commands in two servers give the same hashes at every point; one extra tap in one of them
        /// makes them differ from then on.
        @Test func equalCommandStreamsGiveEqualHashesAndOneExtraTapMakesThemDiffer() throws {
            let one = try ServerProcess(["--held", "--scene", "default", "--no-http"])
            let two = try ServerProcess(["--held", "--scene", "default", "--no-http"])
            let a = try one.connect(), b = try two.connect()
            let bodyA = try #require(a.join().scene?.bodies.last?.id)
            let bodyB = try #require(b.join().scene?.bodies.last?.id)
            #expect(bodyA == bodyB)
            let script: [String] = [
                #"{"type":"tap","x":400,"y":300}"#,
                #"{"type":"step","ticks":30}"#,
                #"{"type":"set","body":\#(bodyA),"elasticity":0.6}"#,
                #"{"type":"gravity","magnitude":0.5,"angle":1.2}"#,
                #"{"type":"step","ticks":45}"#,
            ]
            var id = 1
            var seen: Set<String> = []
            for line in script {
                let withID = line.replacingOccurrences(of: "{\"type\"", with: "{\"id\":\(id),\"type\"")
                #expect(try a.ack(withID, id: id) != nil, "\(line)")
                #expect(try b.ack(withID, id: id) != nil, "\(line)")
                let ha = try #require(try a.stateHash(id: id + 100))
                let hb = try #require(try b.stateHash(id: id + 100))
                #expect(ha.tick == hb.tick)
                #expect(ha.hash == hb.hash, "after \(line)")
                #expect(ha.hash.count == 16 && ha.hash.allSatisfy(\.isHexDigit))
                seen.insert(ha.hash)
                id += 1
            }
            #expect(seen.count == script.count, "every command changed the state, so every hash is new")

            #expect(try b.ack(#"{"id":50,"type":"tap","x":200,"y":300}"#, id: 50) != nil)
            let afterTap = try #require(try b.stateHash(id: 51))
            let untouched = try #require(try a.stateHash(id: 51))
            #expect(afterTap.tick == untouched.tick)
            #expect(afterTap.hash != untouched.hash, "a tap waiting for the next step is state")
            _ = try a.step(10, id: 52)
            _ = try b.step(10, id: 52)
            #expect(try a.stateHash(id: 53)?.hash != (try b.stateHash(id: 53))?.hash, "the extra tap's push moved a body")
            withExtendedLifetime((one, two)) {}
        }

        /// `ping` and `subscribe` change nothing the next steps depend on; `set` does, and so does a step.
        @Test func hashIsUnchangedByPingAndSubscribeAndChangedBySetAndStep() throws {
            let server = try ServerProcess(["--held", "--scene", "default", "--no-http"])
            let client = try server.connect()
            let body = try #require(client.join().scene?.bodies.first?.id)
            let before = try #require(try client.stateHash(id: 1))
            #expect(before.tick == 0)
            #expect(try client.request(.ping(t: .number(5)), id: .int(2)) != nil)
            #expect(try client.ack(#"{"type":"subscribe","id":3,"snapshots":"compact","contacts":true}"#, id: 3) != nil)
            #expect(try client.stateHash(id: 4)?.hash == before.hash)
            #expect(try client.stateHash(id: 5)?.hash == before.hash, "asking twice gives the same answer")

            #expect(try client.ack(#"{"type":"set","id":6,"body":\#(body),"friction":0.75}"#, id: 6) != nil)
            let afterSet = try #require(try client.stateHash(id: 7))
            #expect(afterSet.hash != before.hash)
            #expect(afterSet.tick == before.tick)

            #expect(try client.ack(.step(ticks: 1), id: 8) != nil)
            let afterStep = try #require(try client.stateHash(id: 9))
            #expect(afterStep.tick == 1)
            #expect(afterStep.hash != afterSet.hash)
            withExtendedLifetime(server) {}
        }
    }
}
