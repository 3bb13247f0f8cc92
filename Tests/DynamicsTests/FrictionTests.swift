import Testing
@testable import Dynamics

/// A 50-pt box on a 30° anchored ramp, both with `friction`; returns how far the box moves in 1 s.
private func slideDistance(friction: Double) throws -> Double {
    let a = makeWorld()
    let theta = Double.pi / 6
    let rampCenter = Vec2(400, 350)
    _ = try a.addItem(width: 700, height: 40, center: rampCenter, angle: theta,
                      properties: .init(friction: friction, anchored: true))
    let up = Vec2(0.5, -(3.0).squareRoot() / 2)   // the ramp's upper face normal: rot(θ)·(0, -1)
    let start = rampCenter + up * 45.25
    let box = try a.addItem(width: 50, height: 50, center: start, angle: theta, properties: .init(friction: friction))
    a.run(seconds: 1)
    return distance(a.center(box), start)
}

@Test(.timeLimit(.minutes(3))) func boxSlidesDownA30DegreeRampWithFrictionPointOne() throws {
    // a = g (sin 30° − 0.1 cos 30°) ≈ 413 pt/s², so ≈ 206 pt in 1 s.
    let d = try slideDistance(friction: 0.1)
    #expect(d > 150 && d < 260)
}

@Test(.timeLimit(.minutes(3))) func boxStaysPutOnA30DegreeRampWithFrictionOne() throws {
    #expect(try slideDistance(friction: 1) < 1)
}

/// docs/ENGINE.md, "Materials": against a boundary (friction 0.2) an item of friction 1 slides with
/// sqrt(1 × 0.2) ≈ 0.447. A box thrown along the floor at 400 pt/s decelerates at 0.447 × 1000 pt/s² and stops
/// after v² / 2a ≈ 179 pt.
@Test(.timeLimit(.minutes(3))) func frictionAgainstTheFloorMixesWithTheBoundaryFrictionPointTwo() throws {
    let a = makeWorld()
    let box = try a.addItem(width: 50, height: 50, center: Vec2(100, 575), properties: .init(friction: 1))
    a.run(seconds: 0.3)
    try a.addLinearVelocity(Vec2(400, 0), to: box)
    let start = a.center(box).x
    a.run(seconds: 2)
    let slid = a.center(box).x - start
    let expected = 400 * 400 / (2 * 0.2.squareRoot() * 1000)
    #expect(abs(slid - expected) < 0.08 * expected, "slid \(slid) pt, expected \(expected)")
}
