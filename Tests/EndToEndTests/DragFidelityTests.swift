import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// A drag never breaks the world (docs/PROTOCOL.md, `drag`; docs/ENGINE.md, "Drag"): the two cases users
    /// hit first, read back from snapshots of a real server.
    @Suite(.serialized)
    struct DragFidelityTests {
        /// The `attachment` scene's 100 x 100 square hangs by a rigid rod from (400, 90); the pointer drags it
        /// far beyond the rod's reach and holds still there.
        @Test(.timeLimit(.minutes(5))) func dragBeyondTheRodHoldsStillWithRealVelocityAndReleasesGently() throws {
            let server = try ServerProcess(["--scene", "attachment"])
            let client = try server.connect()
            let body = try #require(client.join().scene?.bodies.first?.id)
            let start = try #require(client.nextSnapshot { $0.body(body) != nil }?.body(body))
            _ = try #require(try client.ack(#"{"type":"drag","id":1,"phase":"begin","x":\#(start.x),"y":\#(start.y)}"#, id: 1))
            for (k, point) in [(620.0, 400.0), (700, 480), (760, 560)].enumerated() {
                _ = try #require(try client.ack(#"{"type":"drag","id":\#(k + 2),"phase":"move","x":\#(point.0),"y":\#(point.1)}"#, id: k + 2))
            }
            // The item swings into place (real motion, no solver artefact), then holds still.
            let snapshots = try client.snapshotsAfterNow(for: 2.5)
            let states = snapshots.compactMap { s in s.body(body).map { (tick: s.tick, state: $0) } }
            #expect(states.count >= 20)
            // After the first half second's fast swing (where a chord between snapshots is not the speed):
            for (p, q) in zip(states, states.dropFirst()).dropFirst(15) where q.tick > p.tick {
                let dt = Double(q.tick - p.tick) / 60
                let real = hypot(q.state.x - p.state.x, q.state.y - p.state.y) / dt
                let reported = hypot(q.state.vx, q.state.vy)
                #expect(abs(reported - real) < 40, "reported \(reported) pt/s, moved at \(real) pt/s")
            }
            let held = states.suffix(from: states.count * 4 / 5).map(\.state)
            for s in held {
                #expect(hypot(s.vx, s.vy) < 10, "reported (\(s.vx), \(s.vy)) pt/s while held still")
                #expect(abs(s.av) < 0.5, "spin \(s.av) rad/s while held still")
            }
            let before = hypot(held.last?.vx ?? 0, held.last?.vy ?? 0)
            _ = try #require(try client.ack(#"{"type":"drag","id":9,"phase":"end"}"#, id: 9))
            // Just after: the first snapshot after the release (gravity alone adds 17 pt/s per tick).
            let after = try #require(try client.snapshotsAfterNow(for: 0.3).first?.body(body))
            #expect(hypot(after.vx, after.vy) <= before + 50, "speed \(hypot(after.vx, after.vy)) just after the release")
            withExtendedLifetime(server) {}
        }

        /// The `push` scene's 80 x 80 square (no gravity) is dragged into the right wall, then toward x = 5000.
        @Test(.timeLimit(.minutes(5))) func dragIntoTheWallAndFarBeyondStaysInsideWithoutSpinAndReleasesGently() throws {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let body = try #require(client.join().scene?.bodies.first?.id)
            _ = try #require(try client.ack(#"{"type":"drag","id":1,"phase":"begin","x":400,"y":300}"#, id: 1))
            var id = 2
            for x in stride(from: 450.0, through: 900, by: 50) {
                _ = try #require(try client.ack(#"{"type":"drag","id":\#(id),"phase":"move","x":\#(x),"y":300}"#, id: id))
                id += 1
            }
            _ = try #require(try client.ack(#"{"type":"drag","id":\#(id),"phase":"move","x":5000,"y":300}"#, id: id))
            // A far pointer pulls with a bounded force: the square slides to the wall and stops there.
            _ = try #require(client.nextSnapshot(timeout: 5) { ($0.body(body)?.x ?? 0) > 755 }, "reaches the wall")
            let pressed = try client.snapshotsAfterNow(for: 1.0).compactMap { $0.body(body) }
            #expect(pressed.count >= 10)
            for s in pressed {
                let reach = (abs(cos(s.angle)) + abs(sin(s.angle))) * 40
                #expect(s.x + reach <= 801, "right edge at \(s.x + reach): inside the wall at 800")
            }
            for s in pressed.suffix(pressed.count / 2) {
                #expect(abs(s.av) < 0.5, "spin \(s.av) rad/s while pressed against the wall")
                #expect(hypot(s.vx, s.vy) < 10, "reported (\(s.vx), \(s.vy)) pt/s while standing against the wall")
            }
            let before = hypot(pressed.last?.vx ?? 0, pressed.last?.vy ?? 0)
            _ = try #require(try client.ack(#"{"type":"drag","id":99,"phase":"end"}"#, id: 99))
            let after = try client.snapshotsAfterNow(for: 0.3).compactMap { $0.body(body) }
            #expect(!after.isEmpty)
            for s in after { #expect(hypot(s.vx, s.vy) <= before + 50, "speed \(hypot(s.vx, s.vy)) after the release") }
            withExtendedLifetime(server) {}
        }
    }
}
