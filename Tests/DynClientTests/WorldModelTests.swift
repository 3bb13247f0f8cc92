import NetProtocol
import Testing
@testable import dynclient

@Suite struct WorldModelTests {
    private func world() -> WorldModel {
        var world = WorldModel()
        world.apply(welcome: Fixtures.welcome)
        world.apply(scene: Fixtures.scene)
        return world
    }

    /// Snapshots every 2 ticks (30 Hz) of a box moving 1 pt per tick (60 pt/s), arriving at
    /// 1000 ms + server time + `jitter(n)` ms.
    private func feed(_ world: inout WorldModel, ticks: StrideTo<UInt64>, jitter: (UInt64) -> Double = { _ in 0 }) {
        for tick in ticks {
            let arrival = 1000 + Double(tick) * 1000 / 60 + jitter(tick)
            world.apply(snapshot: Fixtures.snapshot(tick: tick, boxX: 400 + Double(tick)), arrivalMs: UInt64(arrival.rounded()))
        }
    }

    @Test(.timeLimit(.minutes(3))) func steadySnapshotsPlayBackOneIntervalPlusAMarginBehind() {
        var world = world()
        feed(&world, ticks: stride(from: 2, to: 62, by: 2))
        // Interval 33.3 ms, no lateness: the delay is 33.3 + 5 ms; playback at 1900 ms shows server time
        // (1900 - 1000 - 38.3) / 1000 s, i.e. tick 51.7: x = 451.7.
        #expect(abs(world.buffer.delayMs - 38.33) < 1, "arrivals are whole milliseconds")
        let x = world.poses(atMs: 1900)[1]!.x
        #expect(abs(x - (400 + (900 - 38.333) * 60 / 1000)) < 0.1, "\(x)")
    }

    @Test(.timeLimit(.minutes(3))) func jitterGrowsTheBufferAndMotionNeverGoesBack() {
        var world = world()
        // Every third snapshot is 20 ms late, the rest on time: the buffer must cover the late ones.
        var shown: [Double] = []
        for tick in stride(from: 2 as UInt64, to: 200, by: 2) {
            let late = tick % 6 == 0 ? 20.0 : 0
            let arrival = 1000 + Double(tick) * 1000 / 60 + late
            world.apply(snapshot: Fixtures.snapshot(tick: tick, boxX: 400 + Double(tick)), arrivalMs: UInt64(arrival.rounded()))
            // Render every 8 ms up to the next arrival.
            var now = UInt64(arrival.rounded())
            while Double(now) < 1000 + Double(tick + 2) * 1000 / 60 {
                world.advance(toMs: now)
                shown.append(world.poses()[1]!.x)
                now += 8
            }
        }
        #expect(world.buffer.delayMs > 33.3 + 20 - 0.5)
        #expect(world.buffer.delayMs < 33.3 + 20 + 10)
        #expect(zip(shown, shown.dropFirst()).allSatisfy { $1 >= $0 }, "a frame moved the box back")
        // Once the buffer has grown, playback is not starved: consecutive frames keep moving.
        let late = shown.suffix(100)
        #expect(zip(late, late.dropFirst()).filter { $1 == $0 }.count < 5)
    }

    @Test(.timeLimit(.minutes(3))) func angleTakesTheShortWayAcrossPi() {
        var world = world()
        world.apply(snapshot: Fixtures.snapshot(tick: 6, boxAngle: 3.1), arrivalMs: 1100)
        world.apply(snapshot: Fixtures.snapshot(tick: 12, boxAngle: -3.1), arrivalMs: 1200)
        // Interval 100 ms, no lateness: delay 105 ms; at 1255 ms playback is at 0.15 s, half way.
        #expect(world.buffer.delayMs == 105)
        let middle = world.poses(atMs: 1255)[1]!.angle
        // From 3.1 to -3.1 the short way is +0.0832 through pi, never near 0.
        #expect(abs(middle - (3.1 + (2 * Double.pi - 6.2) * 0.5)) < 1e-9, "\(middle)")
    }

    @Test(.timeLimit(.minutes(3))) func pausedGapsAndRestartsShowTheLatestPosesAsTheyAre() {
        var world = world()
        feed(&world, ticks: stride(from: 2, to: 12, by: 2))
        world.apply(snapshot: Fixtures.snapshot(tick: 12, boxX: 440, paused: true), arrivalMs: 1200)
        #expect(world.poses(atMs: 1200)[1]?.x == 440)
        world.apply(snapshot: Fixtures.snapshot(tick: 100, boxX: 500), arrivalMs: 2000)
        #expect(world.poses(atMs: 2000)[1]?.x == 500)
        world.apply(snapshot: Fixtures.snapshot(tick: 3, boxX: 10), arrivalMs: 2033)
        #expect(world.poses(atMs: 2033)[1]?.x == 10)
    }

    @Test(.timeLimit(.minutes(3))) func itemsMissingFromTheSceneAreNotDrawn() {
        var world = WorldModel()
        world.apply(welcome: Fixtures.welcome)
        world.apply(snapshot: Fixtures.snapshot(tick: 2), arrivalMs: 0)
        #expect(world.poses(atMs: 0).isEmpty)
        world.apply(scene: Fixtures.scene)
        #expect(world.poses(atMs: 0).keys.sorted() == [1, 2])
    }

    @Test(.timeLimit(.minutes(3))) func hitTestFindsTheItemUnderAPoint() {
        let world = Fixtures.world()
        let poses = world.poses(atMs: 1000)
        #expect(world.body(at: Point(440, 340), poses: poses) == 1)
        #expect(world.body(at: Point(455, 300), poses: poses) == nil)
        #expect(world.body(at: Point(200, 189), poses: poses) == 2)
        #expect(world.body(at: Point(230, 180), poses: poses) == nil)
    }

    @Test(.timeLimit(.minutes(3))) func gravityDirectionAsAnAngle() {
        let world = Fixtures.world()
        #expect(world.gravityAngleAndMagnitude?.angle == Double.pi / 2)
        #expect(world.gravityAngleAndMagnitude?.magnitude == 1)
    }
}
