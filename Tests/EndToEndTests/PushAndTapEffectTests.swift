import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `push` and `tap` as numbers read back from snapshots. The `push` scene holds one 80 x 80 square of
    /// density 1 (mass 0.64) at the centre of 800 x 600, without gravity, so a = 100 x magnitude / 0.64.
    @Suite(.serialized)
    struct PushAndTapEffectTests {
        static let mass = 80.0 * 80.0 / 10_000

        @Test(.timeLimit(.minutes(5))) func instantaneousPushChangesVelocityBy100TimesMagnitudeOverMass() throws {
            let (server, client, body) = try joinPushScene()
            let fields = try #require(try client.ack(
                #"{"type":"push","id":1,"body":\#(body),"angle":0,"magnitude":1,"mode":"instantaneous"}"#, id: 1))
            #expect(fields.number("body") == Double(body))
            let state = try #require(try client.snapshotsAfterNow(for: 0.4).last?.body(body))
            let expected = 100 * 1 / Self.mass   // 156.25 pt/s
            #expect(isClose(state.vx, expected, within: 0.02), "vx \(state.vx), expected \(expected)")
            #expect(abs(state.vy) < 0.5)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func continuousPushByVectorAcceleratesAt100TimesMagnitudeOverMass() throws {
            let (server, client, body) = try joinPushScene()
            // dx, dy of length 0.5 pointing up (-y): angle -pi/2, magnitude 0.5.
            let fields = try #require(try client.ack(#"{"type":"push","id":2,"body":\#(body),"dx":0,"dy":-0.5}"#, id: 2))
            #expect(abs((fields.number("angle") ?? 0) + Double.pi / 2) < 1e-9)
            #expect(fields.number("magnitude") == 0.5)
            let snapshots = try client.snapshotsAfterNow(for: 1.0)
            let a = try #require(Kinematics.acceleration(of: body, in: snapshots, minSpan: 0.4))
            let expected = -100 * 0.5 / Self.mass   // -78.125 pt/s²
            #expect(isClose(a.ay, expected, within: 0.05), "ay \(a.ay), expected \(expected)")
            #expect(abs(a.ax) < 1)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func tapAimsAtTheTapWithMagnitudeDistanceOver200AndPushesContinuously() throws {
            let (server, client, body) = try joinPushScene()
            // 120 right and 160 down of the centre (400, 300): distance 200, so magnitude 1.
            let fields = try #require(try client.ack(#"{"type":"tap","id":3,"x":520,"y":460}"#, id: 3))
            #expect(fields.number("body") == Double(body))
            let angle = atan2(160.0, 120.0)
            #expect(abs((fields.number("angle") ?? 0) - angle) < 1e-9)
            #expect(abs((fields.number("magnitude") ?? 0) - 1) < 1e-9)

            let snapshots = try client.snapshotsAfterNow(for: 1.0)
            let a = try #require(Kinematics.acceleration(of: body, in: snapshots, minSpan: 0.4))
            let expected = 100 * 1 / Self.mass
            #expect(isClose(hypot(a.ax, a.ay), expected, within: 0.05), "|a| \(hypot(a.ax, a.ay)), expected \(expected)")
            #expect(abs(atan2(a.ay, a.ax) - angle) < 0.02)
            let last = try #require(snapshots.last?.body(body))
            let travelledTowardTap = (last.x - 400) * cos(angle) + (last.y - 300) * sin(angle)
            #expect(travelledTowardTap > 5, "moved \(travelledTowardTap) pt toward the tap")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func instantaneousTapOnEmptySpacePicksTheNearestItemAndChangesItsVelocity() throws {
            let (server, client, body) = try joinPushScene()
            // (300, 300) is 100 left of the centre, outside the square: the nearest item is taken.
            let fields = try #require(try client.ack(#"{"type":"tap","id":4,"x":300,"y":300,"mode":"instantaneous"}"#, id: 4))
            #expect(fields.number("body") == Double(body))
            #expect(abs((fields.number("angle") ?? 0) - Double.pi) < 1e-9)
            #expect(abs((fields.number("magnitude") ?? 0) - 0.5) < 1e-9)
            let state = try #require(try client.snapshotsAfterNow(for: 0.4).last?.body(body))
            let expected = -100 * 0.5 / Self.mass   // -78.125 pt/s
            #expect(isClose(state.vx, expected, within: 0.02), "vx \(state.vx), expected \(expected)")
            #expect(state.x < 400)
            withExtendedLifetime(server) {}
        }

        /// Starts a server on the `push` scene and returns a joined client and the square's id.
        private func joinPushScene() throws -> (ServerProcess, LineClient, Int) {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let scene = try #require(client.join().scene)
            #expect(scene.name == "push")
            #expect(scene.gravity.magnitude == 0)
            let square = try #require(scene.bodies.first)
            #expect(scene.bodies.count == 1 && square.width == 80 && square.height == 80 && square.density == 1)
            return (server, client, square.id)
        }
    }
}
