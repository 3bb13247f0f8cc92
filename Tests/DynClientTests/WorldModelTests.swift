import NetProtocol
import Testing
@testable import dynclient

@Suite struct WorldModelTests {
    /// Two snapshots 2 ticks (1/30 s) apart: the box moves from x 400 to 430 and turns from 0 to 0.3.
    private func movingWorld() -> WorldModel {
        var world = WorldModel()
        world.apply(welcome: Fixtures.welcome)
        world.apply(scene: Fixtures.scene)
        world.apply(snapshot: Fixtures.snapshot(tick: 2, boxX: 400, boxAngle: 0), arrivalMs: 1000)
        world.apply(snapshot: Fixtures.snapshot(tick: 4, boxX: 430, boxAngle: 0.3), arrivalMs: 1033)
        return world
    }

    @Test func posesMoveFromThePreviousToTheLatestSnapshotOverOneInterval() {
        let world = movingWorld()
        #expect(world.poses(atMs: 1033)[1]?.x == 400)
        let half = world.poses(atMs: 1033 + 16)[1]!
        #expect(abs(half.x - (400 + 30 * 0.48)) < 1e-9)
        #expect(abs(half.angle - 0.3 * 0.48) < 1e-9)
        #expect(world.poses(atMs: 1033 + 34)[1]?.x == 430)
        #expect(world.poses(atMs: 5000)[1]?.x == 430)
    }

    @Test func angleTakesTheShortWayAcrossPi() {
        var world = WorldModel()
        world.apply(welcome: Fixtures.welcome)
        world.apply(scene: Fixtures.scene)
        world.apply(snapshot: Fixtures.snapshot(tick: 2, boxAngle: 3.1), arrivalMs: 0)
        world.apply(snapshot: Fixtures.snapshot(tick: 4, boxAngle: -3.1), arrivalMs: 33)
        let middle = world.poses(atMs: 33 + 16)[1]!.angle
        // From 3.1 to -3.1 the short way is +0.0832 through pi; 48 % of it is 3.1399, never near 0.
        #expect(abs(middle - (3.1 + (2 * Double.pi - 6.2) * 0.48)) < 1e-9)
    }

    @Test func pausedGapsAndRestartsShowTheLatestPosesAsTheyAre() {
        var world = movingWorld()
        world.apply(snapshot: Fixtures.snapshot(tick: 6, boxX: 440, paused: true), arrivalMs: 1066)
        #expect(world.poses(atMs: 1066)[1]?.x == 440)
        world.apply(snapshot: Fixtures.snapshot(tick: 100, boxX: 500), arrivalMs: 2000)
        #expect(world.poses(atMs: 2000)[1]?.x == 500)
        world.apply(snapshot: Fixtures.snapshot(tick: 3, boxX: 10), arrivalMs: 2033)
        #expect(world.poses(atMs: 2033)[1]?.x == 10)
    }

    @Test func itemsMissingFromTheSceneAreNotDrawn() {
        var world = WorldModel()
        world.apply(welcome: Fixtures.welcome)
        world.apply(snapshot: Fixtures.snapshot(tick: 2), arrivalMs: 0)
        #expect(world.poses(atMs: 0).isEmpty)
        world.apply(scene: Fixtures.scene)
        #expect(world.poses(atMs: 0).keys.sorted() == [1, 2])
    }

    @Test func hitTestFindsTheItemUnderAPoint() {
        let world = Fixtures.world()
        let poses = world.poses(atMs: 1000)
        #expect(world.body(at: Point(440, 340), poses: poses) == 1)
        #expect(world.body(at: Point(455, 300), poses: poses) == nil)
        #expect(world.body(at: Point(200, 189), poses: poses) == 2)
        #expect(world.body(at: Point(230, 180), poses: poses) == nil)
    }

    @Test func gravityDirectionAsAnAngle() {
        let world = Fixtures.world()
        #expect(world.gravityAngleAndMagnitude?.angle == Double.pi / 2)
        #expect(world.gravityAngleAndMagnitude?.magnitude == 1)
    }
}
