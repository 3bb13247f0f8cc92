@testable import Dynamics
import Testing

/// `awakeContacts` (PhysicsWorld+Contacts.swift, `buildAwakeContacts`): in a mostly awake world, every live
/// contact with an awake body, in id order (the narrow phase and the solver then walk the contacts front to
/// back); in a mostly sleeping one, only the awake bodies' contacts, found through their lists.
@Test(.timeLimit(.minutes(3))) func aMostlyAwakeWorldListsItsAwakeContactsInIdOrder() throws {
    let a = makeWorld()
    a.sleepingEnabled = false
    for row in 0..<6 {
        for k in 0..<(6 - row) {
            _ = try a.addItem(width: 30, height: 30, center: Vec2(200 + Double(row) * 15 + Double(k) * 31, 585 - Double(row) * 30.5))
        }
    }
    a.run(seconds: 1)
    let w = a.world
    let expected = (0..<w.contacts.count).filter { k in
        let c = w.contacts[k]
        return c.bodyA >= 0 && (w.bodies[Int(c.bodyA)].isDynamicAwake || (c.bodyB >= 0 && w.bodies[Int(c.bodyB)].isDynamicAwake))
    }.map(Int32.init)
    #expect(!expected.isEmpty)
    #expect(w.awakeContacts == expected)
}

@Test(.timeLimit(.minutes(3))) func aMostlySleepingWorldListsOnlyTheAwakeBodiesContacts() throws {
    let a = makeWorld()
    for k in 0..<6 {
        _ = try a.addItem(width: 30, height: 30, center: Vec2(100 + Double(k) * 31, 585))
    }
    let lone = try a.addItem(width: 30, height: 30, center: Vec2(700, 585))
    a.run(seconds: 5)
    #expect(a.world.awakeCount == 0)
    try a.addLinearVelocity(Vec2(20, 0), to: lone)
    a.step()
    let w = a.world
    #expect(w.awakeCount == 1)
    #expect(Set(w.awakeContacts) == Set(w.contactIDs(ofBody: w.bodies.count - 1)))
}
