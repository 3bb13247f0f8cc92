import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func namedSegmentStopsAFallingItemAndReportsBeganThenEnded() throws {
    let a = makeWorld(collision: false)
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.addBoundary(id: "ledge", from: Vec2(100, 400), to: Vec2(700, 400))
    let cid = a.add(c)
    let id = try a.addItem(width: 50, height: 50, center: Vec2(400, 200))
    a.run(seconds: 1.5)
    #expect(abs(a.center(id).y - 375) < 1)
    let began = a.takeContactEvents()
    #expect(began.count == 1)
    guard case .began(let item, let partner, let point)? = began.first else {
        Issue.record("expected a began event")
        return
    }
    #expect(item == id && partner == .boundary("ledge"))
    #expect(abs(point.y - 400) < 1 && abs(point.x - 400) < 1)
    #expect(a.collision(cid)!.boundaries.count == 1)
    c.removeBoundary(id: "ledge")
    try a.update(cid, c)
    a.run(seconds: 0.5)
    #expect(a.takeContactEvents() == [.ended(id, .boundary("ledge"))])
    #expect(a.center(id).y > 450)
}

@Test(.timeLimit(.minutes(3))) func itemItemContactsReportBeganWithTheLowerIDFirst() throws {
    let a = makeWorld()
    let lower = try a.addItem(width: 50, height: 50, center: Vec2(400, 575))
    let upper = try a.addItem(width: 50, height: 50, center: Vec2(400, 520))
    a.run(seconds: 1)
    let events = a.takeContactEvents()
    #expect(events.contains { if case .began(lower, .item(upper), _) = $0 { true } else { false } })
    #expect(events.contains { if case .began(lower, .boundary("bounds"), _) = $0 { true } else { false } })
    #expect(!events.contains { if case .ended = $0 { true } else { false } })
    a.removeItem(upper)
    #expect(a.takeContactEvents() == [.ended(lower, .item(upper))])
}

@Test(.timeLimit(.minutes(3))) func closedPathBoundaryContainsAnItem() throws {
    let a = makeWorld(collision: false)
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.addBoundary(id: "cup", points: [Vec2(300, 200), Vec2(500, 200), Vec2(500, 400), Vec2(300, 400)], closed: true)
    _ = a.add(c)
    let id = try a.addItem(shape: .ellipse, width: 40, height: 40, center: Vec2(400, 250), velocity: Vec2(900, 300))
    a.run(seconds: 2)
    let p = a.center(id)
    #expect(p.x > 300 && p.x < 500 && p.y > 200 && p.y < 400)
    #expect(abs(p.y - 380) < 1)
}
