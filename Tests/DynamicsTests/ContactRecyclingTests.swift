@testable import Dynamics
import Testing

/// Contact recycling (Engine/ContactRecycling.swift, docs/ENGINE.md "Persistent contacts"): a contact whose
/// bodies barely moved relative to each other keeps its manifold and moves its separations on.

/// A settled stack, kept awake: nearly every contact is recycled each step instead of going through the
/// narrow phase, and the stack still stands.
@Test(.timeLimit(.minutes(3))) func aRestingStackRecyclesItsContacts() throws {
    let a = makeWorld()
    a.sleepingEnabled = false
    var ids: [ItemID] = []
    for row in 0..<8 {
        for k in 0..<(8 - row) {
            ids.append(try a.addItem(width: 30, height: 30,
                                     center: Vec2(200 + Double(row) * 15 + Double(k) * 31, 585 - Double(row) * 30.5)))
        }
    }
    let top = ids.last!
    a.run(seconds: 1)
    // Settled (the rows started 0.5 pt apart): from here the top box must stay put.
    let start = a.item(top)!.center
    a.run(seconds: 3)
    a.step()
    let updated = a.world.narrowPhaseUpdates + a.world.recycledManifolds
    #expect(updated == a.world.awakeContacts.count)
    #expect(Double(a.world.recycledManifolds) >= 0.9 * Double(updated),
            "recycled \(a.world.recycledManifolds) of \(updated)")
    #expect((a.item(top)!.center - start).length < 0.5, "the stack stands")
}

/// A box sliding slowly along a ledge: while its contact is recycled, the separations it carries are the
/// box's real distance to the ledge, and after it slid farther than the tolerance the narrow phase runs again.
@Test(.timeLimit(.minutes(3))) func aRecycledContactTracksTheSeparationAndIsRecomputedOnceItMovedFarEnough() throws {
    let a = makeWorld(collision: false)
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.addBoundary(id: "ledge", from: Vec2(0, 400), to: Vec2(800, 400))
    _ = a.add(c)
    var p = ItemProperties(friction: 0)
    p.allowsRotation = false
    let box = try a.addItem(width: 40, height: 40, center: Vec2(100, 378), properties: p)
    a.sleepingEnabled = false
    a.run(seconds: 1)
    try a.addLinearVelocity(Vec2(60, 0), to: box)
    var recycledSteps = 0, recomputedSteps = 0
    for _ in 0..<60 {
        a.step()
        let ids = a.world.contactIDs(ofBody: 0)
        #expect(ids.count == 1)
        let contact = a.world.contacts[Int(ids[0])]
        let bottom = a.item(box)!.center.y + 20
        #expect(abs(contact.minSeparation - (400 - bottom)) < 0.01,
                "separation \(contact.minSeparation), gap \(400 - bottom)")
        recycledSteps += a.world.recycledManifolds
        recomputedSteps += a.world.narrowPhaseUpdates
    }
    // 60 pt/s for 1 s: 60 pt of sliding, so the 5 pt tolerance is passed about 12 times.
    #expect(recomputedSteps >= 10 && recomputedSteps <= 20, "recomputed \(recomputedSteps) times")
    #expect(recycledSteps == 60 - recomputedSteps)
    #expect(abs(a.item(box)!.center.x - 160) < 2)
}
