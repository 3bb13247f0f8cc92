import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func anchoredItemNeverMovesAndOthersRestOnIt() throws {
    let a = makeWorld()
    let base = try a.addItem(width: 200, height: 100, center: Vec2(400, 450), angle: 0,
                             velocity: Vec2(50, 0), properties: .init(anchored: true))
    let box = try a.addItem(width: 100, height: 100, center: Vec2(400, 200), properties: .init(friction: 0.5))
    var p = PushBehavior(items: [base], mode: .instantaneous)
    p.magnitude = 100
    _ = try a.add(p)
    a.run(seconds: 3)
    let b = a.item(base)!
    #expect(b.center == Vec2(400, 450))
    #expect(b.angle == 0)
    #expect(b.velocity == .zero)
    #expect(abs(a.center(box).y - 350) < 1)
    #expect(abs(a.center(box).x - 400) < 0.5)
}
