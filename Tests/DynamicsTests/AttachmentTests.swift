import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func rigidAttachmentKeepsItsLengthWithinOnePercentWhileSwinging() throws {
    let a = makeWorld(collision: false)
    let anchor = Vec2(400, 100)
    let id = try a.addItem(width: 40, height: 40, center: Vec2(600, 100))
    let bid = try a.add(AttachmentBehavior.anchored(id, to: anchor))
    #expect(a.attachment(bid)!.length == 200)
    var worst = 0.0, lowest = 0.0
    a.run(seconds: 3) {
        worst = max(worst, abs(distance(a.center(id), anchor) - 200) / 200)
        lowest = max(lowest, a.center(id).y)
    }
    #expect(worst < 0.01)
    #expect(lowest > 290)
}

@Test(.timeLimit(.minutes(3))) func springAttachmentOscillatesAtItsFrequency() throws {
    let a = makeWorld(gravity: false, collision: false)
    let anchor = Vec2(200, 300)
    let id = try a.addItem(width: 40, height: 40, center: Vec2(450, 300))
    var spring = AttachmentBehavior.anchored(id, to: anchor)
    spring.length = 200
    spring.frequency = 2
    _ = try a.add(spring)
    // Time the upward crossings of the rest length.
    var crossings: [Double] = []
    var previous = distance(a.center(id), anchor) - 200
    a.run(seconds: 3) {
        let x = distance(a.center(id), anchor) - 200
        if previous < 0 && x >= 0 { crossings.append(a.elapsedTime) }
        previous = x
    }
    #expect(crossings.count >= 4)
    let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
    #expect(abs(1 / period - 2) / 2 < 0.1)
}

@Test(.timeLimit(.minutes(3))) func movingTheAnchorDragsTheItem() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 50, height: 50, center: Vec2(200, 575))
    var drag = AttachmentBehavior.anchored(id, offset: Vec2(10, -10), to: Vec2(210, 565))
    drag.length = 0
    let bid = try a.add(drag)
    for k in 1...30 {
        drag.anchor = Vec2(210 + 10 * Double(k), 565 - 8 * Double(k))
        try a.update(bid, drag)
        a.step()
    }
    a.run(seconds: 1)
    let s = a.item(id)!
    let grab = s.center + Vec2(10 * cosine(s.angle) + 10 * sine(s.angle), 10 * sine(s.angle) - 10 * cosine(s.angle))
    #expect(distance(grab, Vec2(510, 325)) < 2)
}

@Test(.timeLimit(.minutes(3))) func itemToItemAttachmentHoldsTwoItemsApart() throws {
    let a = makeWorld()
    let first = try a.addItem(width: 30, height: 30, center: Vec2(300, 200))
    let second = try a.addItem(width: 30, height: 30, center: Vec2(400, 200))
    _ = try a.add(AttachmentBehavior.items(first, second))
    var worst = 0.0
    a.run(seconds: 3) { worst = max(worst, abs(distance(a.center(first), a.center(second)) - 100)) }
    #expect(worst < 1)
    #expect(a.center(first).y > 500)
}

@Test(.timeLimit(.minutes(3))) func ropeLimitOnlyStopsStretching() throws {
    let a = makeWorld(collision: false)
    let anchor = Vec2(400, 100)
    let id = try a.addItem(width: 20, height: 20, center: Vec2(400, 150))
    var rope = AttachmentBehavior.anchored(id, to: anchor)
    rope.kind = .limit
    rope.length = 150
    _ = try a.add(rope)
    a.run(seconds: 2)
    #expect(abs(distance(a.center(id), anchor) - 150) < 1)
    try a.setTransform(id, center: Vec2(400, 180), angle: 0)
    a.step()
    #expect(a.center(id).y > 180)
}

@Test(.timeLimit(.minutes(3))) func pinAttachmentMakesTwoPointsCoincide() throws {
    let a = makeWorld(collision: false)
    let hub = try a.addItem(width: 40, height: 40, center: Vec2(400, 200), properties: .init(anchored: true))
    let arm = try a.addItem(width: 100, height: 10, center: Vec2(450, 200))
    var pin = AttachmentBehavior.items(hub, offset: .zero, arm, offset: Vec2(-50, 0))
    pin.kind = .pin
    _ = try a.add(pin)
    var worst = 0.0, swing = 0.0
    a.run(seconds: 2) {
        let s = a.item(arm)!
        let end = s.center - Vec2(50 * cosine(s.angle), 50 * sine(s.angle))
        worst = max(worst, distance(end, Vec2(400, 200)))
        swing = max(swing, s.angle)
    }
    #expect(worst < 1)
    // Released horizontally, the arm swings down about the pin to (nearly) vertical.
    #expect(swing > 1.4)
}
