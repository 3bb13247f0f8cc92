import Testing
@testable import Dynamics

/// Items spawned into one spot: every pair overlaps, so n items make n²/2 contacts until they spread out.
@Test(.timeLimit(.minutes(3))) func aPileAtOnePointHasEveryPairAndKeepsEveryItemInside() throws {
    let a = DynamicAnimator(width: 800, height: 600)
    _ = a.add(GravityBehavior())
    _ = a.add(CollisionBehavior())
    var ids: [ItemID] = []
    for _ in 0..<300 { ids.append(try a.addItem(width: 20, height: 20, center: Vec2(400, 300))) }
    a.step()
    // 300 items at one point: 44 850 pairs, every one a contact (docs/ENGINE.md, "Broad phase").
    #expect(a.world.contacts.filter { $0.bodyB >= 0 }.count == 300 * 299 / 2)
    for _ in 0..<60 { a.step() }
    for id in ids {
        let s = try #require(a.item(id))
        #expect(s.center.isFinite && s.velocity.isFinite)
        #expect(s.center.x >= 0 && s.center.x <= 800 && s.center.y >= 0 && s.center.y <= 600)
    }
}

@Test(.timeLimit(.minutes(3))) func aRestingRowStaysOnTheGround() throws {
    // A resting box touches a few neighbours and the ground (a big proxy).
    let a = DynamicAnimator(width: 2000, height: 600)
    _ = a.add(GravityBehavior())
    _ = a.add(CollisionBehavior())
    var ids: [ItemID] = []
    for i in 0..<40 { ids.append(try a.addItem(width: 40, height: 40, center: Vec2(20 + Double(i) * 41, 580))) }
    for _ in 0..<120 { a.step() }
    for id in ids { #expect(abs(try #require(a.item(id)).center.y - 580) < 1) }
}
