import Testing
@testable import Dynamics

/// Fields (docs/UIKIT.md, Fields): each formula measured on a 100 x 100 item of density 1 (mass 1) in a world
/// without gravity or collisions. 1 m = 100 pt; a field of 1 m/s² changes a velocity by 100/60 pt/s per step.
private func fieldWorld(_ field: FieldBehavior, itemAt center: Vec2, velocity: Vec2 = .zero, charge: Double = 0,
                        density: Double = 1, gravity: Bool = false) throws -> (DynamicAnimator, ItemID) {
    let a = makeWorld(gravity: gravity, collision: false)
    let id = try a.addItem(width: 100, height: 100, center: center, velocity: velocity,
                           properties: ItemProperties(density: density, allowsRotation: false, charge: charge))
    _ = try a.add(field)
    return (a, id)
}

/// The solver integrates velocities in Float (docs/ENGINE.md, "Precision"), so a velocity is exact to about an
/// ulp of its size (5e-7 pt/s at 5 pt/s, 1.5e-5 pt/s at 150 pt/s) and an acceleration measured over one step to
/// 60 times that: checked to 1e-4 pt/s and pt/s² (1e-6 when the solver state was Double). Still one part in a
/// million of the field strengths below.
private let floatTolerance = 1e-4

/// The acceleration (pt/s²) the field gave the item (of mass `density`) in one step.
private func acceleration(_ field: FieldBehavior, at center: Vec2, velocity: Vec2 = .zero, charge: Double = 0,
                          density: Double = 1) throws -> Vec2 {
    let (a, id) = try fieldWorld(field, itemAt: center, velocity: velocity, charge: charge, density: density)
    a.step()
    return (try #require(a.item(id)).velocity - velocity) * 60
}

@Test(.timeLimit(.minutes(3))) func radialGravityPullsTowardItsPositionWithFalloff0And2() throws {
    var field = FieldBehavior(kind: .radialGravity, position: Vec2(200, 300), strength: 2)
    let near = try acceleration(field, at: Vec2(300, 300))
    let far = try acceleration(field, at: Vec2(400, 300))
    #expect(abs(near.x + 200) < floatTolerance && abs(near.y) < 1e-9, "falloff 0, 1 m: \(near)")
    #expect(abs(far.x + 200) < floatTolerance, "falloff 0, 2 m: the same \(far)")
    field.falloff = 2
    let near2 = try acceleration(field, at: Vec2(300, 300))
    let far2 = try acceleration(field, at: Vec2(400, 300))
    #expect(abs(near2.x + 200) < floatTolerance, "falloff 2, 1 m: \(near2)")
    #expect(abs(far2.x + 50) < floatTolerance, "falloff 2, 2 m: a quarter \(far2)")
    // Below the minimum radius the field is as strong as at the minimum radius.
    field.minimumRadius = 200
    let clamped = try acceleration(field, at: Vec2(300, 300))
    #expect(abs(clamped.x + 50) < floatTolerance, "\(clamped)")
}

@Test(.timeLimit(.minutes(3))) func linearGravityAcceleratesAlongItsDirectionRegardlessOfMass() throws {
    var field = FieldBehavior(kind: .linearGravity, position: Vec2(0, 0), strength: 3)
    field.direction = Vec2(1, 0)
    let a = try acceleration(field, at: Vec2(400, 300))
    #expect(abs(a.x - 300) < floatTolerance && abs(a.y) < 1e-9)
    // Mass 5 (density 5): the same acceleration.
    let heavy = try acceleration(field, at: Vec2(400, 300), density: 5)
    #expect(abs(heavy.x - 300) < floatTolerance && abs(heavy.y) < 1e-9, "mass 5: \(heavy)")
}

@Test(.timeLimit(.minutes(3))) func springPullsInProportionToDistanceAndInverselyToMass() throws {
    let field = FieldBehavior(kind: .spring, position: Vec2(200, 300), strength: 1)
    let oneMeter = try acceleration(field, at: Vec2(300, 300))
    let twoMeters = try acceleration(field, at: Vec2(400, 300))
    #expect(abs(oneMeter.x + 100) < floatTolerance && abs(twoMeters.x + 200) < floatTolerance, "\(oneMeter) \(twoMeters)")
    // Mass 4 (density 4): a quarter of the acceleration.
    let heavy = try acceleration(field, at: Vec2(300, 300), density: 4)
    #expect(abs(heavy.x + 25) < floatTolerance, "mass 4: \(heavy)")
}

@Test(.timeLimit(.minutes(3))) func vortexTurnsCounterClockwiseOnScreen() throws {
    let field = FieldBehavior(kind: .vortex, position: Vec2(400, 300), strength: 1)
    let right = try acceleration(field, at: Vec2(500, 300))
    #expect(abs(right.y + 100) < floatTolerance && abs(right.x) < 1e-9, "an item to the right is pushed up: \(right)")
    let above = try acceleration(field, at: Vec2(400, 200))
    #expect(abs(above.x + 100) < floatTolerance, "an item above is pushed left: \(above)")
}

@Test(.timeLimit(.minutes(3))) func dragFieldSlowsQuadratically() throws {
    // dv/dt = -|v| v (m/s): from 3 m/s, v(t) = 3 / (1 + 3 t), 0.75 m/s after 1 s.
    let (a, id) = try fieldWorld(FieldBehavior(kind: .drag, position: .zero), itemAt: Vec2(100, 300), velocity: Vec2(300, 0))
    a.run(seconds: 1)
    let v = a.item(id)!.velocity.x
    #expect(abs(v - 75) < 1.5, "after 1 s: \(v) pt/s")
}

@Test(.timeLimit(.minutes(3))) func velocityFieldReachesItsVelocityAndHoldsItAgainstGravity() throws {
    var field = FieldBehavior(kind: .velocity, position: Vec2(400, 300))
    field.direction = Vec2(1.5, 0)
    let (a, id) = try fieldWorld(field, itemAt: Vec2(100, 300), velocity: Vec2(0, 200), gravity: true)
    a.run(seconds: 0.5)
    let v = a.item(id)!.velocity
    #expect(abs(v.x - 150) < floatTolerance && abs(v.y) < floatTolerance, "terminal velocity \(v)")
}

@Test(.timeLimit(.minutes(3))) func regionLimitsWhereAFieldActs() throws {
    var field = FieldBehavior(kind: .linearGravity, position: Vec2(400, 300))
    field.region = .circle(radius: 150)
    #expect(try acceleration(field, at: Vec2(500, 300)).y > 99)
    #expect(try acceleration(field, at: Vec2(600, 300)) == .zero)
    field.region = .inverse(.circle(radius: 150))
    #expect(try acceleration(field, at: Vec2(600, 300)).y > 99)
    field.region = .rect(width: 100, height: 400)
    #expect(try acceleration(field, at: Vec2(400, 480)).y > 99)
    #expect(try acceleration(field, at: Vec2(460, 300)) == .zero)
}

@Test(.timeLimit(.minutes(3))) func electricForceFollowsTheSignOfTheCharge() throws {
    let field = FieldBehavior(kind: .electric, position: Vec2(400, 300), strength: 1)
    let positive = try acceleration(field, at: Vec2(500, 300), charge: 1)
    let negative = try acceleration(field, at: Vec2(500, 300), charge: -2)
    let neutral = try acceleration(field, at: Vec2(500, 300), charge: 0)
    #expect(abs(positive.x - 100) < floatTolerance, "like charges repel: \(positive)")
    #expect(abs(negative.x + 200) < floatTolerance, "unlike charges attract, twice as hard: \(negative)")
    #expect(neutral == .zero)
}

@Test(.timeLimit(.minutes(3))) func magneticForceIsPerpendicularToTheVelocity() throws {
    let field = FieldBehavior(kind: .magnetic, position: Vec2(400, 300), strength: 1)
    let a = try acceleration(field, at: Vec2(500, 300), velocity: Vec2(100, 0), charge: 1)
    // F = q (vy, -vx) with v = (1, 0) m/s: (0, -1) N, 100 pt/s² up.
    #expect(abs(a.y + 100) < floatTolerance && abs(a.x) < floatTolerance, "\(a)")
}

@Test(.timeLimit(.minutes(3))) func noiseIsBoundedSmoothAndDeterministicPerSeed() {
    var field = FieldBehavior(kind: .noise, position: .zero)
    field.smoothness = 0.5
    field.animationSpeed = 1
    field.seed = 42
    var other = field
    other.seed = 43
    var differs = 0
    for k in 0..<2000 {
        let p = Vec2(Double(k % 50) * 17.3, Double(k / 50) * 13.1)
        let t = Double(k) * 0.01
        let v = FieldNoise.vector(field, at: p, time: t)
        #expect(abs(v.x) <= 1 && abs(v.y) <= 1)
        #expect(v == FieldNoise.vector(field, at: p, time: t), "same seed, same vector")
        if v != FieldNoise.vector(other, at: p, time: t) { differs += 1 }
        // Smooth: 1 pt away the vector changes by little (the grain is 262.5 pt here).
        let near = FieldNoise.vector(field, at: p + Vec2(1, 0), time: t)
        #expect((near - v).length < 0.05)
    }
    #expect(differs > 1900, "another seed gives another field")
}

@Test(.timeLimit(.minutes(3))) func noiseFieldMovesItemsTheSameWayEveryRun() throws {
    /// The world's hash after 2 s, and how far the item that moved least went: the same hash twice proves
    /// nothing if the field moved nothing.
    func run() throws -> (hash: UInt64, leastMoved: Double) {
        var field = FieldBehavior(kind: .noise, position: Vec2(400, 300), strength: 5)
        field.animationSpeed = 2
        field.seed = 7
        let a = makeWorld(gravity: false)
        var starts: [(ItemID, Vec2)] = []
        for k in 0..<6 {
            let start = Vec2(100 + Double(k) * 110, 300)
            starts.append((try a.addItem(width: 40, height: 40, center: start), start))
        }
        _ = try a.add(field)
        a.run(seconds: 2)
        return (transformHash(a), starts.map { (a.center($0.0) - $0.1).length }.min() ?? 0)
    }
    let first = try run(), second = try run()
    #expect(first.hash == second.hash)
    #expect(first.leastMoved > 5, "every item is moved by the field: the least moved went \(first.leastMoved) pt")
}

@Test(.timeLimit(.minutes(3))) func turbulenceActsOnlyOnMovingItems() throws {
    let field = FieldBehavior(kind: .turbulence, position: Vec2(400, 300), strength: 10)
    #expect(try acceleration(field, at: Vec2(420, 310)) == .zero)
    #expect(try acceleration(field, at: Vec2(420, 310), velocity: Vec2(200, 0)) != .zero)
}

@Test(.timeLimit(.minutes(3))) func invalidFieldsAreRejected() {
    let a = makeWorld()
    var field = FieldBehavior(kind: .radialGravity, position: Vec2(.nan, 0))
    #expect(throws: DynamicsError.self) { try a.add(field) }
    field.position = .zero
    field.falloff = -1
    #expect(throws: DynamicsError.self) { try a.add(field) }
    field.falloff = 0
    field.region = .circle(radius: 0)
    #expect(throws: DynamicsError.self) { try a.add(field) }
}
