import Testing
@testable import Dynamics

/// Drops a ball 450 pt onto the bottom bound and returns how high it rises after the first bounce.
private func reboundHeight(elasticity: Double) throws -> Double {
    let a = makeWorld()
    let id = try a.addItem(shape: .ellipse, width: 100, height: 100, center: Vec2(400, 100),
                           properties: .init(elasticity: elasticity))
    let restY = 550.0
    var landed = false, highest = restY
    a.run(seconds: 3) {
        let s = a.item(id)!
        if !landed && s.center.y > restY - 1 { landed = true }
        if landed { highest = min(highest, s.center.y) }
    }
    #expect(landed)
    return restY - highest
}

@Test(.timeLimit(.minutes(3))) func elasticityOneReboundsToAtLeast90PercentOfTheDropHeight() throws {
    let h = try reboundHeight(elasticity: 1)
    #expect(h >= 0.9 * 450)
    #expect(h <= 1.01 * 450)
}

@Test(.timeLimit(.minutes(3))) func elasticityZeroReboundsLessThanTwoPoints() throws {
    #expect(try reboundHeight(elasticity: 0) < 2)
}
