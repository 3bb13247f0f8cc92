import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Every acknowledged impulse acts, and rest is real (docs/PROTOCOL.md, `push` and `tap`): the `push`
    /// scene holds one 80 x 80 square of mass 0.64 at (400, 300), without gravity, and a push of magnitude 0.
    @Suite(.serialized)
    struct ImpulseTests {
        @Test(.timeLimit(.minutes(5))) func twoInstantaneousPushesSentTogetherAddUp() throws {
            let (server, client, body) = try joinPushScene()
            let one = #"{"type":"push","id":1,"body":\#(body),"angle":0,"magnitude":1,"mode":"instantaneous"}"#
            let two = #"{"type":"push","id":2,"body":\#(body),"angle":0,"magnitude":1,"mode":"instantaneous"}"#
            try client.sendRaw(Array((one + "\n" + two + "\n").utf8))
            guard case .ack? = client.answer(to: .int(1)), case .ack? = client.answer(to: .int(2)) else {
                Issue.record("both pushes are acknowledged")
                return
            }
            let state = try #require(try client.snapshotsAfterNow(for: 0.4).last?.body(body))
            // 2 x 100 x 1 / 0.64 = 312.5 pt/s.
            #expect(abs(state.vx - 312.5) < 0.5, "vx \(state.vx)")
            #expect(abs(state.vy) < 0.5)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func twoInstantaneousTapsSentTogetherAddUp() throws {
            let (server, client, body) = try joinPushScene()
            // 100 pt left of the centre: angle pi, magnitude 0.5, so -78.125 pt/s each.
            let tap1 = #"{"type":"tap","id":1,"x":300,"y":300,"mode":"instantaneous"}"#
            let tap2 = #"{"type":"tap","id":2,"x":300,"y":300,"mode":"instantaneous"}"#
            try client.sendRaw(Array((tap1 + "\n" + tap2 + "\n").utf8))
            guard case .ack? = client.answer(to: .int(1)), case .ack? = client.answer(to: .int(2)) else {
                Issue.record("both taps are acknowledged")
                return
            }
            let state = try #require(try client.snapshotsAfterNow(for: 0.4).last?.body(body))
            #expect(abs(state.vx + 156.25) < 0.5, "vx \(state.vx)")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func pushSceneRestsDespiteItsZeroPushAndAColourChangeKeepsItPaused() throws {
            let (server, client, body) = try joinPushScene()
            _ = try #require(client.nextSnapshot(timeout: 5) { $0.paused }, "the push scene pauses")
            _ = try #require(try client.ack(##"{"type":"set","id":3,"body":\##(body),"color":"#123456"}"##, id: 3))
            let after = try client.snapshotsAfterNow(for: 1.3)   // a paused world sends a keep-alive each second
            #expect(!after.isEmpty)
            #expect(after.allSatisfy { $0.paused }, "a colour change moves nothing and wakes nothing")
            withExtendedLifetime(server) {}
        }

        /// Starts a server on the `push` scene and returns a joined client and the square's id.
        private func joinPushScene() throws -> (ServerProcess, LineClient, Int) {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            let square = try #require(scene.bodies.first)
            return (server, client, square.id)
        }
    }
}
