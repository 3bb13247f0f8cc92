import Testing
@testable import Dynamics

/// Part H's scenes (docs/ENGINE.md, "Only touching bodies interact", "Every pile separates"): bodies that never
/// touch exchange nothing, a near miss leaves a sleeping pile asleep, items created at one point separate.
@Suite(.timeLimit(.minutes(2)))
struct OnlyTouchingBodiesInteractTests {
    /// A row of balls `gap` apart, every third one higher, dropped onto the floor.
    private func ballRow(_ a: DynamicAnimator, count: Int, diameter: Double, gap: Double, x0: Double,
                         elasticity: Double, stagger: Double) throws -> [ItemID] {
        try (0..<count).map { k in
            try a.addItem(shape: .ellipse, width: diameter, height: diameter,
                          center: Vec2(x0 + Double(k) * (diameter + gap), 200 - Double(k % 3) * stagger),
                          properties: .init(elasticity: elasticity))
        }
    }

    /// The largest |vx| of `ids` over `seconds`.
    private func maxSideways(_ a: DynamicAnimator, _ ids: [ItemID], seconds: Double) -> Double {
        var worst = 0.0
        a.run(seconds: seconds) { for id in ids { worst = max(worst, abs(a.item(id)!.velocity.x)) } }
        return worst
    }

    @Test(arguments: [16.0, 8.0])
    func thirtyElasticBallsThatNeverTouchStayStillSideways(diameter: Double) throws {
        let a = makeWorld()
        let balls = try ballRow(a, count: 30, diameter: diameter, gap: 1.6, x0: 100, elasticity: 1, stagger: 30)
        let worst = maxSideways(a, balls, seconds: 4)
        // Box2D 2.3 on this layout: 0.00 pt/s; before the fixed speculative distance: up to 4 336 pt/s.
        #expect(worst < 1, "largest sideways speed \(worst) pt/s")
        #expect(a.deepestOverlap(balls) < 0.01)
    }

    @Test func ballsBesideARestingPileStayStillSidewaysAndLeaveThePileAlone() throws {
        let a = makeWorld()
        var pile: [ItemID] = []
        for row in 0..<3 {
            for col in 0..<6 {
                pile.append(try a.addItem(width: 20, height: 20, center: Vec2(600 + Double(col) * 20,
                                                                               590 - Double(row) * 20)))
            }
        }
        a.run(seconds: 1)
        let before = pile.map { a.center($0) }
        // The last ball's right edge 1.6 pt left of the pile.
        let x0 = 600 - 10 - 1.6 - 8 - 29 * 17.6
        let balls = try ballRow(a, count: 30, diameter: 16, gap: 1.6, x0: x0, elasticity: 1, stagger: 30)
        var pileSpeed = 0.0
        var worst = 0.0
        a.run(seconds: 4) {
            for id in balls { worst = max(worst, abs(a.item(id)!.velocity.x)) }
            for id in pile { pileSpeed = max(pileSpeed, a.item(id)!.velocity.length) }
        }
        #expect(worst < 1, "largest sideways ball speed \(worst) pt/s")
        #expect(pileSpeed < 20, "fastest pile box \(pileSpeed) pt/s")
        for (id, p) in zip(pile, before) { #expect(distance(a.center(id), p) < 1) }
    }

    @Test func twoInelasticBallsStaggeredThirtyPointsGetNoSidewaysSpeed() throws {
        let a = makeWorld()
        let one = try a.addItem(shape: .ellipse, width: 8, height: 8, center: Vec2(400, 300))
        let two = try a.addItem(shape: .ellipse, width: 8, height: 8, center: Vec2(409.6, 270))
        let worst = maxSideways(a, [one, two], seconds: 3)
        #expect(worst < 1, "largest sideways speed \(worst) pt/s (was 325 pt/s)")
    }

    @Test func aBallFallingFifteenPointsBesideASleepingPileLeavesItAsleep() throws {
        let a = makeWorld()
        var pile: [ItemID] = []
        for row in 0..<4 {
            for col in 0..<5 { pile.append(try a.addItem(width: 20, height: 20, center: Vec2(400 + Double(col) * 20, 590 - Double(row) * 20))) }
        }
        var steps = 0
        while !a.allAsleep && steps < 600 { a.step(); steps += 1 }
        try #require(a.allAsleep, "the pile fell asleep")
        // The pile's left side is at x = 390; the ball's right edge 15 pt left of it.
        let ball = try a.addItem(shape: .ellipse, width: 16, height: 16, center: Vec2(390 - 15 - 8, 300))
        var wokenWhileApart = 0
        a.run(seconds: 1.5) {
            let awake = pile.filter { id in a.world.bodies[a.indexOf[id]!].awake }.count
            wokenWhileApart = max(wokenWhileApart, awake)
        }
        #expect(wokenWhileApart == 0, "\(wokenWhileApart) pile boxes woke though nothing touched them")
        #expect(a.item(ball)!.center.y > 580)
    }

    /// `count` circles created at one point; returns the ids after `seconds`, checking every step that nothing
    /// is more than 1 pt outside the bounds and that the world never rests with an overlap deeper than 3 pt,
    /// nor keeps one in the last quarter of the run while awake with every item slower than 10 pt/s (a pile that
    /// jitters forever never sleeps, and a check made only at sleep would never run).
    /// The world after `seconds`, and the fastest any item moved sideways (gravity pulls down only) and at all.
    private func spawnAtOnePoint(count: Int, gravity: Bool, seconds: Double) throws
        -> (DynamicAnimator, [ItemID], sideways: Double, fastest: Double) {
        let a = makeWorld(gravity: gravity)
        var ids: [ItemID] = []
        for _ in 0..<count { ids.append(try a.addItem(shape: .ellipse, width: 30, height: 30, center: Vec2(400, 300))) }
        var outside = 0.0
        var restingOverlap = 0.0, settledOverlap = 0.0
        var sideways = 0.0, fastest = 0.0
        var step = 0
        let settled = Int((seconds * 0.75 * a.stepHz).rounded())
        a.run(seconds: seconds) {
            step += 1
            outside = max(outside, a.farthestOutside(ids))
            if a.allAsleep { restingOverlap = max(restingOverlap, a.deepestOverlap(ids)) }
            if step > settled, a.fastest(ids) < 10 { settledOverlap = max(settledOverlap, a.deepestOverlap(ids)) }
            for id in ids {
                let v = a.item(id)?.velocity ?? .zero
                sideways = max(sideways, abs(v.x))
                fastest = max(fastest, v.length)
            }
        }
        #expect(outside <= 1, "an item was \(outside) pt outside the bounds")
        #expect(restingOverlap <= 3, "the world rested with an overlap of \(restingOverlap) pt")
        #expect(settledOverlap <= 3, "the world came to a near rest, awake, with an overlap of \(settledOverlap) pt")
        return (a, ids, sideways, fastest)
    }

    @Test(arguments: [(150, true), (50, false)])
    func circlesCreatedAtOnePointSeparate(count: Int, gravity: Bool) throws {
        let (a, ids, _, _) = try spawnAtOnePoint(count: count, gravity: gravity, seconds: 8)
        let overlap = a.deepestOverlap(ids)
        #expect(overlap <= 2, "deepest overlap after settling: \(overlap) pt")
        let xs = ids.map { a.center($0).x }
        // Not one column: spread over many diameters.
        #expect(xs.max()! - xs.min()! > 150, "x spread \(xs.max()! - xs.min()!) pt")
    }

    /// Each overlapping pair pushes apart at up to the push-out speed (300 pt/s); in a pile created at one point
    /// those pushes must not add up to an explosion (docs/ENGINE.md, "Every pile separates"). Nothing may move
    /// sideways faster than the fall from the spawn point to the floor gives (a falling circle deflected by the
    /// pile), or twice the push-out speed without gravity. Before the cap, the fastest circle reached about
    /// 3 100 pt/s with gravity (1 320 sideways after the first cap, on the overlapping bodies alone) and 1 700
    /// without.
    @Test(arguments: [(150, true), (50, false)])
    func aPileCreatedAtOnePointSeparatesWithoutExploding(count: Int, gravity: Bool) throws {
        let (_, _, sideways, fastest) = try spawnAtOnePoint(count: count, gravity: gravity, seconds: 3)
        let push = Tuning.contactPushMaxVelocity
        // From the centre at y 300 to resting on the floor (y 585) at 1 000 pt/s².
        let fall = gravity ? (2 * GravityBehavior.pointsPerSecondSquared * (600 - 15 - 300)).squareRoot() : 0
        #expect(sideways <= max(fall, 2 * push), "fastest sideways \(sideways) pt/s (the fall gives \(fall))")
        #expect(fastest <= fall + 2 * push, "fastest \(fastest) pt/s (the fall gives \(fall))")
    }

    @Test func twoBoxesCreatedAtOnePointSeparateSideways() throws {
        let a = makeWorld()
        let one = try a.addItem(width: 40, height: 40, center: Vec2(400, 300))
        let two = try a.addItem(width: 40, height: 40, center: Vec2(400, 300))
        a.run(seconds: 3)
        #expect(a.deepestOverlap([one, two]) <= 2)
        #expect(abs(a.center(one).x - a.center(two).x) > 20, "they stand side by side, not in a column")
    }
}
