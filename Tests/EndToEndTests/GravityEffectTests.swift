import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Gravity as numbers read back from snapshots: magnitude 1 = 1000 pt/s² along its direction.
    @Suite(.serialized)
    struct GravityEffectTests {
        @Test(.timeLimit(.minutes(5))) func spawnedItemFallsAt1000PointsPerSecondSquared() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = try #require(client.join().scene)
            let body = try spawnSquare(client, x: 400, y: 60)
            // Free fall from y = 60 reaches the floor (575) after ~1 s; 0.5 s stays well above it.
            let snapshots = try client.snapshotsAfterNow(for: 0.5).filter { ($0.body(body)?.y ?? 999) < 500 }
            let a = try #require(Kinematics.acceleration(of: body, in: snapshots, minSpan: 0.2))
            #expect(isClose(a.ay, 1000, within: 0.03), "ay \(a.ay)")
            #expect(abs(a.ax) < 1)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func gravityTurnedToPlusXAcceleratesAlongPlusX() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = try #require(client.join().scene)
            let scenes = client.sceneCount
            _ = try #require(try client.ack(#"{"type":"gravity","id":1,"dx":1,"dy":0}"#, id: 1))
            let scene = try #require(client.scene(after: scenes))
            #expect(scene.gravity == GravityInfo(dx: 1, dy: 0, magnitude: 1))
            let body = try spawnSquare(client, x: 100, y: 300)
            let snapshots = try client.snapshotsAfterNow(for: 0.5).filter { ($0.body(body)?.x ?? 999) < 700 }
            let a = try #require(Kinematics.acceleration(of: body, in: snapshots, minSpan: 0.2))
            #expect(isClose(a.ax, 1000, within: 0.03), "ax \(a.ax)")
            #expect(abs(a.ay) < 1)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func gravityMagnitudeHalfGives500PointsPerSecondSquaredDown() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = try #require(client.join().scene)
            let scenes = client.sceneCount
            _ = try #require(try client.ack(#"{"type":"gravity","id":1,"magnitude":0.5}"#, id: 1))
            // UIKit's gravityDirection: a vector whose length is the magnitude, still pointing down.
            let gravity = try #require(client.scene(after: scenes)?.gravity)
            #expect(gravity.magnitude == 0.5)
            #expect(abs(gravity.dx) < 1e-9 && abs(gravity.dy - 0.5) < 1e-9)
            let body = try spawnSquare(client, x: 400, y: 60)
            let snapshots = try client.snapshotsAfterNow(for: 0.6).filter { ($0.body(body)?.y ?? 999) < 500 }
            let a = try #require(Kinematics.acceleration(of: body, in: snapshots, minSpan: 0.2))
            #expect(isClose(a.ay, 500, within: 0.03), "ay \(a.ay)")
            withExtendedLifetime(server) {}
        }

        private func spawnSquare(_ client: LineClient, x: Int, y: Int) throws -> Int {
            let fields = try #require(try client.ack(
                #"{"type":"spawn","id":100,"shape":"rect","width":50,"height":50,"x":\#(x),"y":\#(y)}"#, id: 100))
            return Int(try #require(fields.number("body")))
        }
    }
}
