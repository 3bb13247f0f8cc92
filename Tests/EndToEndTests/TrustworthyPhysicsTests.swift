import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Part H through the real server (docs/ENGINE.md, "Only touching bodies interact", "Every pile
    /// separates"), counted in held ticks: balls that never touch stay still sideways, and items spawned at one
    /// point separate.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct TrustworthyPhysicsTests {
        @Test func elasticBallsFallingSideBySideNeverPushEachOtherSideways() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            var balls: [Int] = []
            for k in 0..<30 {
                // 16 pt balls 1.6 pt apart, every third one 30 or 60 pt higher.
                let x = 100 + Double(k) * 17.6, y = 200 - Double(k % 3) * 30
                let line = #"{"type":"spawn","id":\#(k + 1),"shape":"ellipse","width":16,"height":16,"x":\#(x),"y":\#(y),"elasticity":1}"#
                balls.append(Int(try #require(try client.ack(line, id: k + 1)?.number("body"))))
            }
            var worst = 0.0
            var landed = 0
            for k in 0..<24 {
                let snap = try #require(try client.step(10, id: 100 + k))
                for id in balls {
                    let b = try #require(snap.body(id))
                    worst = max(worst, abs(b.vx))
                    if b.y > 580 { landed += 1 }
                }
            }
            #expect(landed > 0, "the balls reached the floor and bounced")
            // Before the fixed speculative distance: up to 4 336 pt/s sideways (Box2D 2.3: 0.00 pt/s).
            #expect(worst < 1, "largest sideways speed \(worst) pt/s")
            withExtendedLifetime(server) {}
        }

        @Test func circlesSpawnedAtOnePointSeparate() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            var ids: [Int] = []
            for k in 0..<80 {
                let line = #"{"type":"spawn","id":\#(k + 1),"shape":"ellipse","width":30,"height":30,"x":400,"y":300}"#
                ids.append(Int(try #require(try client.ack(line, id: k + 1)?.number("body"))))
            }
            var last: Snapshot?
            var outside = 0.0
            // "No rest while overlapping" (docs/ENGINE.md, "Every pile separates": deeper than 3 pt), read on
            // every tick's snapshot: whatever the world reports as resting, an item whose velocity reads 0
            // (asleep) or every item while the world is `paused`, overlaps no other resting item that deep.
            var restingOverlap = 0.0, worstTick: UInt64 = 0, snapshotsWithRest = 0, pausedSnapshots = 0
            // One tick per snapshot until the world pauses; a paused world changes nothing, so then 30 at a time.
            var k = 0
            while (last?.tick ?? 0) < 600, k < 700 {
                k += 1
                let snap = try #require(try client.step(last?.paused == true ? 30 : 1, id: 200 + k))
                let bodies = try ids.map { id in try #require(snap.body(id)) }
                for b in bodies { outside = max(outside, 15 - b.x, 15 - b.y, b.x + 15 - 800, b.y + 15 - 600) }
                let resting = snap.paused ? bodies : bodies.filter { $0.vx == 0 && $0.vy == 0 && $0.av == 0 }
                if resting.count > 1 {
                    snapshotsWithRest += 1
                    let overlap = Self.deepestOverlap(resting, radius: 15)
                    if overlap > restingOverlap { (restingOverlap, worstTick) = (overlap, snap.tick) }
                }
                if snap.paused { pausedSnapshots += 1 }
                last = snap
            }
            let final = try #require(last)
            let end = try ids.map { try #require(final.body($0)) }
            let overlap = Self.deepestOverlap(end, radius: 15)
            #expect(overlap <= 2, "deepest overlap after 600 ticks: \(overlap) pt (was 20 pt, in one column)")
            #expect(outside <= 1, "a circle was \(outside) pt outside the world")
            // The pile does come to rest (a check of resting items that never rest would pass vacuously).
            #expect(pausedSnapshots > 0, "the pile never rested in 600 ticks (\(snapshotsWithRest) snapshots with two items resting)")
            #expect(restingOverlap <= 3, "resting items overlapped by \(restingOverlap) pt at tick \(worstTick)")
            let xs = end.map(\.x)
            let spread = try #require(xs.max()) - (try #require(xs.min()))
            #expect(spread > 150, "spread across \(spread) pt, not one column")
            withExtendedLifetime(server) {}
        }

        /// 50 circles at one point with gravity off: they separate, and the pushes of their overlapping pairs do
        /// not add up (docs/ENGINE.md, "Every pile separates"): nothing faster than twice the push-out speed
        /// (300 pt/s), read tick by tick. Before the cap the fastest reached about 1 700 pt/s.
        @Test func circlesSpawnedAtOnePointWithoutGravitySeparateWithoutExploding() throws {
            let server = try ServerProcess(["--scene", "empty", "--held"])
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.ack(#"{"type":"gravity","magnitude":0,"id":1}"#, id: 1))
            var ids: [Int] = []
            for k in 0..<50 {
                let line = #"{"type":"spawn","id":\#(k + 10),"shape":"ellipse","width":30,"height":30,"x":400,"y":300}"#
                ids.append(Int(try #require(try client.ack(line, id: k + 10)?.number("body"))))
            }
            var fastest = 0.0
            var last: Snapshot?
            for k in 0..<120 {
                let snap = try #require(try client.step(1, id: 100 + k))
                for id in ids {
                    let b = try #require(snap.body(id))
                    fastest = max(fastest, hypot(b.vx, b.vy))
                }
                last = snap
            }
            let final = try #require(last)
            let end = try ids.map { try #require(final.body($0)) }
            let overlap = Self.deepestOverlap(end, radius: 15)
            #expect(overlap <= 2, "deepest overlap after 120 ticks: \(overlap) pt (Box2D 2.3 leaves them coincident)")
            #expect(fastest > 0, "they moved apart")
            #expect(fastest <= 600, "fastest circle \(fastest) pt/s")
            withExtendedLifetime(server) {}
        }

        private static func deepestOverlap(_ bodies: [BodyState], radius: Double) -> Double {
            var deepest = 0.0
            for i in 0..<bodies.count {
                for j in (i + 1)..<bodies.count {
                    let d = hypot(bodies[i].x - bodies[j].x, bodies[i].y - bodies[j].y)
                    deepest = max(deepest, 2 * radius - d)
                }
            }
            return deepest
        }
    }
}
