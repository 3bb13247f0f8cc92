import Dynamics
import NetProtocol
import Testing
@testable import DynRoom
@testable import dynserver

/// The server's command layer over a real animator (no network).
@Suite struct WorldCommandTests {
    private func pushWorld() -> (SharedWorld, ItemID) {
        let world = SharedWorld(width: 800, height: 600, stepHz: 60)
        _ = try? world.loadScene("push")
        return (world, world.animator.itemIDs[0])
    }

    @Test(.timeLimit(.minutes(3))) func tapOnTheRightPushesTowardTheTapWithDistanceOver200() throws {
        let (world, id) = pushWorld()
        let fields = try world.tap(x: 600, y: 300, body: nil, mode: .continuous)
        #expect(fields.map(\.0) == ["body", "angle", "magnitude"])
        #expect(fields[0].1 == .number(Double(id)))
        #expect(fields[1].1 == .number(0))
        #expect(fields[2].1 == .number(1))
        for _ in 0..<30 { world.animator.step() }
        let item = try #require(world.animator.item(id))
        #expect(item.center.x > 400)
        #expect(abs(item.center.y - 300) < 0.01)
    }

    @Test(.timeLimit(.minutes(3))) func tapFallsBackToTheNearestItemAndFailsInAnEmptyWorld() throws {
        let (world, id) = pushWorld()
        let fields = try world.tap(x: 10, y: 10, body: nil, mode: .instantaneous)
        #expect(fields[0].1 == .number(Double(id)))
        world.clear(name: "empty")
        #expect(throws: ProtocolError(.noBody, "there is no item to tap")) { try world.tap(x: 1, y: 1, body: nil, mode: .continuous) }
    }

    @Test(.timeLimit(.minutes(3))) func dragOffsetIsTheGrabPointInTheItemFrame() throws {
        let (world, id) = pushWorld()
        try world.animator.setTransform(id, center: Vec2(400, 300), angle: Double.pi / 2)
        _ = try world.dragBegin(client: 1, name: "a", x: 410, y: 300, body: nil)
        let drag = try #require(world.drags[1])
        // A point 10 pt to the right on screen is 10 pt along the item's -y axis after a quarter turn.
        #expect(abs(drag.offset.x) < 1e-9)
        #expect(abs(drag.offset.y + 10) < 1e-9)
        #expect(world.dragInfos().map(\.body) == [id])
    }

    @Test(.timeLimit(.minutes(3))) func dragMoveAndEndNeedABegin() {
        let (world, _) = pushWorld()
        #expect(throws: ProtocolError.self) { try world.dragMove(client: 3, x: 1, y: 1) }
        #expect(throws: ProtocolError.self) { try world.dragEnd(client: 3) }
    }

    @Test(.timeLimit(.minutes(3))) func removingADraggedItemReleasesTheDragAndItsBehaviors() throws {
        let (world, id) = pushWorld()
        _ = try world.dragBegin(client: 1, name: "a", x: 400, y: 300, body: nil)
        _ = try world.snap(body: id, x: 100, y: 100, damping: nil)
        let released = world.remove(id)
        #expect(released == [1])
        #expect(world.drags.isEmpty)
        #expect(world.snaps.isEmpty)
        #expect(world.continuousPushes.isEmpty)
        #expect(world.animator.attachmentIDs.isEmpty)
        #expect(throws: ProtocolError.self) { try world.removeBody(id) }
    }

    @Test(.timeLimit(.minutes(3))) func everySceneLoadsAndIdsAreNeverReused() throws {
        let world = SharedWorld(width: 800, height: 600, stepHz: 60)
        var seen = Set<ItemID>()
        for name in Scenes.names {
            _ = try world.loadScene(name)
            #expect(world.sceneName == name)
            let ids = world.animator.itemIDs
            #expect(seen.isDisjoint(with: ids))
            seen.formUnion(ids)
            if name != "empty" { #expect(!ids.isEmpty) }
            #expect(world.sceneInfo().bodies.count == ids.count)
        }
        #expect(throws: ProtocolError.self) { try world.loadScene("nope") }
    }

    @Test(.timeLimit(.minutes(3))) func gravityChangesKeepTheOtherHalf() throws {
        let world = SharedWorld(width: 800, height: 600, stepHz: 60)
        _ = try world.changeGravity(.magnitude(0.5))
        #expect(abs(world.gravity.direction.x) < 1e-12)
        #expect(world.gravity.direction.y == 0.5)
        _ = try world.changeGravity(.angle(0, magnitude: nil))
        #expect(abs(world.gravity.direction.x - 0.5) < 1e-12)
        #expect(abs(world.gravity.direction.y) < 1e-12)
        _ = try world.changeGravity(.vector(dx: 0, dy: -3, magnitude: 2))
        #expect(world.gravity.direction == Vec2(0, -2))
        #expect(world.sceneInfo().gravity == GravityInfo(dx: 0, dy: -2, magnitude: 2))
    }

    @Test(.timeLimit(.minutes(3))) func spawnOutsideTheWorldOrTooBigIsBadValue() {
        let world = SharedWorld(width: 800, height: 600, stepHz: 60)
        #expect(throws: ProtocolError.self) {
            try world.spawn(shape: .rect, width: 10, height: 10, x: 900, y: 10, angle: nil, vx: nil, vy: nil, patch: .init())
        }
        #expect(throws: ProtocolError.self) {
            try world.spawn(shape: .rect, width: 1000, height: 10, x: 400, y: 10, angle: nil, vx: nil, vy: nil, patch: .init())
        }
    }

    @Test(.timeLimit(.minutes(3))) func setChangesPropertiesAndColourAndMarksTheStructure() throws {
        let (world, id) = pushWorld()
        world.structureChanged = false
        _ = try world.set(body: id, patch: PropertyPatch(elasticity: 0.7, allowsRotation: false, color: "#ABCDEF"))
        let body = try #require(world.sceneInfo().bodies.first)
        #expect(body.elasticity == 0.7)
        #expect(body.allowsRotation == false)
        #expect(body.color == "#abcdef")
        #expect(world.structureChanged)
    }
}
