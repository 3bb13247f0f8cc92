import Testing
@testable import Dynamics

/// docs/ENGINE.md, "Restitution": flat drops rebound to e² of the drop height without turning, and a
/// stack that falls together bounces together.

/// Drops a 50 x 50 box flat from `drop` pt above the floor; returns the rebound height of its first bounce
/// and the largest |angle| seen after it.
private func flatDrop(elasticity: Double, drop: Double = 300) throws -> (height: Double, angle: Double) {
    let a = makeWorld()
    let restY = 575.0
    let id = try a.addItem(width: 50, height: 50, center: Vec2(400, restY - drop),
                           properties: .init(elasticity: elasticity))
    var landed = false, rising = false, highest = restY, maxAngle = 0.0
    a.run(seconds: 3) {
        let s = a.item(id)!
        if !landed && s.center.y > restY - 1 { landed = true }
        guard landed else { return }
        maxAngle = max(maxAngle, abs(s.angle))
        if s.velocity.y < 0 { rising = true }
        if rising && s.velocity.y <= 0 { highest = min(highest, s.center.y) }
        if rising && s.velocity.y > 0 { rising = false; landed = false }
    }
    return (restY - highest, maxAngle)
}

@Test(.timeLimit(.minutes(3)), arguments: [0.5, 0.9])
func flatDropReboundsToElasticitySquaredOfItsHeightWithoutTurning(elasticity e: Double) throws {
    let (h, angle) = try flatDrop(elasticity: e)
    let expected = e * e * 300
    #expect(abs(h - expected) <= 0.05 * expected, "rebound \(h) pt, expected \(expected)")
    #expect(angle < 0.02, "turned by \(angle) rad")
}

/// The cookbook's stacked pair (Part F's measurement in Box2D 2.4): 50 x 50 squares, the top one of
/// elasticity 0 with its frame at (100, 0), the bottom one of elasticity 0.9 at (100, 50) (so centers at
/// (125, 25) and (125, 75)), fall together and leave the floor together; the top one is never launched.
@Test(.timeLimit(.minutes(3))) func stackedPairBouncesTogetherWithoutLaunchingTheTopSquare() throws {
    let a = makeWorld()
    let top = try a.addItem(width: 50, height: 50, center: Vec2(125, 25), properties: .init(elasticity: 0))
    let bottom = try a.addItem(width: 50, height: 50, center: Vec2(125, 75), properties: .init(elasticity: 0.9))
    var maxGap = 0.0, impact = 0.0, leaving: (Double, Double)?
    a.run(seconds: 2) {
        let t = a.item(top)!, b = a.item(bottom)!
        maxGap = max(maxGap, b.center.y - t.center.y - 50)
        if b.velocity.y > impact { impact = b.velocity.y }
        if leaving == nil && b.velocity.y < -100 { leaving = (t.velocity.y, b.velocity.y) }
    }
    let (vt, vb) = try #require(leaving)
    #expect(maxGap < 5, "the top square flew \(maxGap) pt off the bottom one")
    #expect(abs(vt - vb) < 0.05 * impact, "left the floor at \(vt) and \(vb) pt/s")
    #expect(-vb > 0.8 * impact, "bounced at \(-vb) of an impact at \(impact) pt/s")
}

/// The same two squares apart: the elastic one bounces clearly higher.
@Test(.timeLimit(.minutes(3))) func elasticSquareBouncesHigherThanTheInelasticOneBesideIt() throws {
    let (elastic, _) = try flatDrop(elasticity: 0.9, drop: 200)
    let (inelastic, _) = try flatDrop(elasticity: 0, drop: 200)
    #expect(elastic > 100)
    #expect(inelastic < 2)
}

/// A box hitting a ball that the top wall stops in the same step: the rigid passes would hand the box the whole
/// approach speed, the ball's part included, and the pair would leave with more energy than it brought. A
/// bounce never adds energy (Engine/BounceEnergy.swift; SPEC Part H, "Energy is bounded").
@Test(.timeLimit(.minutes(3)), arguments: [0.5, 0.82, 1.0])
func aBounceAgainstABallHeldByAWallAddsNoEnergy(elasticity e: Double) throws {
    let a = makeWorld(gravity: false)
    // The ball just off the top wall, moving down; the box just below it, moving up: they meet in the first step.
    let ball = try a.addItem(shape: .ellipse, width: 37, height: 37, center: Vec2(400, 18.6),
                             velocity: Vec2(0, 560), properties: .init(elasticity: e, density: 2))
    let box = try a.addItem(width: 38, height: 57, center: Vec2(400, 18.6 + 18.5 + 28.5 + 1),
                            velocity: Vec2(0, -550), properties: .init(elasticity: 0.5, density: 1.8))
    let start = a.kineticEnergy([ball, box])
    var most = start
    a.run(seconds: 0.5) { most = max(most, a.kineticEnergy([ball, box])) }
    #expect(most <= 1.0001 * start, "kinetic energy rose to \(most / start) × the start")
    // And it still bounces: the box leaves downward.
    #expect(a.item(box)!.velocity.y > 100, "box velocity \(a.item(box)!.velocity)")
}
