import Dynamics
import NetProtocol
import Testing
@testable import DynRoom
@testable import dynserver

/// Values whose physics would overflow are `bad_value` in the protocol's words (docs/PROTOCOL.md, "Limits").
@Suite struct PhysicsLimitTests {
    private func pushWorld() -> (SharedWorld, ItemID) {
        let world = SharedWorld(width: 800, height: 600, stepHz: 60)
        _ = try? world.loadScene("push")
        return (world, world.animator.itemIDs[0])
    }

    private func expectBadValue(_ body: () throws(ProtocolError) -> SharedWorld.AckFields) {
        do {
            _ = try body()
            Issue.record("accepted")
        } catch {
            #expect(error.code == .badValue)
            #expect(!error.message.contains("invalidValue") && !error.message.contains("DynamicsError"), "\(error.message)")
        }
    }

    @Test(.timeLimit(.minutes(3))) func hugeGravityIsRejectedAndTheOldOneStays() {
        let (world, _) = pushWorld()
        let before = world.gravity
        expectBadValue { () throws(ProtocolError) in try world.changeGravity(.vector(dx: 1e308, dy: 1e308, magnitude: nil)) }
        expectBadValue { () throws(ProtocolError) in try world.changeGravity(.magnitude(1e6)) }
        #expect(world.gravity == before)
    }

    @Test(.timeLimit(.minutes(3))) func hugeSpawnVelocityIsRejected() {
        let (world, _) = pushWorld()
        let count = world.animator.itemCount
        expectBadValue { () throws(ProtocolError) in
            try world.spawn(shape: .rect, width: 10, height: 10, x: 100, y: 100, angle: nil, vx: 1e308, vy: nil,
                            patch: PropertyPatch())
        }
        #expect(world.animator.itemCount == count)
    }

    @Test(.timeLimit(.minutes(3))) func hugePushIsRejectedAndNothingMoves() {
        let (world, id) = pushWorld()
        expectBadValue { () throws(ProtocolError) in
            try world.push(body: id, direction: .angle(0, magnitude: 1e300), mode: .instantaneous, active: nil, offset: nil)
        }
        world.animator.step()
        #expect(world.animator.item(id)!.velocity == .zero)
    }

    @Test(.timeLimit(.minutes(3))) func nonConvexPolygonIsRejectedInWords() {
        let (world, _) = pushWorld()
        do {
            _ = try world.spawn(shape: .polygon([Point(0, 0), Point(10, 10), Point(20, 0), Point(10, 30)]), width: 20,
                                height: 30, x: 100, y: 100, angle: nil, vx: nil, vy: nil, patch: PropertyPatch())
            Issue.record("accepted")
        } catch {
            #expect(error.code == .badValue)
            #expect(error.message == "spawn rejected: polygon is not strictly convex", "\(error.message)")
        }
    }
}
