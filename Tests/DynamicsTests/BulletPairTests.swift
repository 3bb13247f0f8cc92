import Testing
@testable import Dynamics

/// Two fast items flung at each other meet and bounce (SPEC Part H, "No tunnelling", with Part O's bullet pairs;
/// docs/ENGINE.md, "Continuous collision"): both are bullets, and bullets are swept against each other along
/// their relative motion. Without that sweep two 20 pt balls at 5 000 pt/s each close 167 pt per step and pass
/// through each other without a single contact.
@Suite(.timeLimit(.minutes(1)))
struct BulletPairTests {
    /// What one run of two balls flung head-on saw, read back step by step.
    struct Encounter {
        /// The smallest centre distance seen after any step minus the sum of the radii (< 0: overlap).
        var closestGap = Double.infinity
        /// True when the left ball's centre was ever right of the right ball's (they passed through).
        var crossed = false
        /// Velocities along x at the end.
        var leftVX = 0.0
        var rightVX = 0.0
        /// The first step after which both velocities had reversed (nil: never).
        var reversedAtStep: Int?
    }

    /// Two balls of `size` pt, `offset` pt apart across their lanes, flung at each other at `speed` pt/s each,
    /// stepped for half a second (no gravity, no boundaries).
    static func fling(speed: Double, size: Double = 20, offset: Double = 0, elasticity: Double = 1) throws
        -> Encounter {
        let a = makeWorld(gravity: false, collision: false)
        _ = a.add(CollisionBehavior(mode: .items, translatesReferenceBoundsIntoBoundary: false))
        let properties = ItemProperties(elasticity: elasticity)
        let left = try a.addItem(shape: .ellipse, width: size, height: size, center: Vec2(100, 300),
                                 velocity: Vec2(speed, 0), properties: properties)
        let right = try a.addItem(shape: .ellipse, width: size, height: size, center: Vec2(700, 300 + offset),
                                  velocity: Vec2(-speed, 0), properties: properties)
        var e = Encounter()
        for step in 1...30 {
            a.step()
            let l = a.item(left)!, r = a.item(right)!
            e.closestGap = min(e.closestGap, distance(l.center, r.center) - size)
            if l.center.x > r.center.x { e.crossed = true }
            if e.reversedAtStep == nil && l.velocity.x < 0 && r.velocity.x > 0 { e.reversedAtStep = step }
            e.leftVX = l.velocity.x
            e.rightVX = r.velocity.x
        }
        return e
    }

    @Test(arguments: [5_000.0, 20_000.0])
    func ballsFlungAtEachOtherMeetAndBounce(speed: Double) throws {
        let e = try Self.fling(speed: speed)
        #expect(!e.crossed, "the balls passed through each other")
        #expect(e.closestGap > -2, "overlapped by \(-e.closestGap) pt")
        // They meet within the first 600 pt / (2 × speed) s and bounce back elastically (equal masses swap
        // velocities).
        let meet = Int((600 / (2 * speed) * 60).rounded(.up)) + 2
        #expect(e.reversedAtStep != nil && e.reversedAtStep! <= meet, "reversed at step \(String(describing: e.reversedAtStep))")
        #expect(abs(e.leftVX + speed) < 0.05 * speed, "left ball leaves at \(e.leftVX) pt/s")
        #expect(abs(e.rightVX - speed) < 0.05 * speed, "right ball leaves at \(e.rightVX) pt/s")
    }

    /// Inelastic balls meeting head-on stop each other (momentum 0), still without passing.
    @Test func inelasticBallsFlungAtEachOtherStop() throws {
        let e = try Self.fling(speed: 5_000, elasticity: 0)
        #expect(!e.crossed)
        #expect(e.closestGap > -2)
        #expect(abs(e.leftVX) < 50 && abs(e.rightVX) < 50, "left \(e.leftVX), right \(e.rightVX)")
    }

    /// Off-centre by half a radius, the balls still meet (and are deflected), they do not pass through.
    @Test func ballsFlungAtEachOtherOffCentreMeet() throws {
        let e = try Self.fling(speed: 5_000, offset: 5)
        #expect(e.closestGap > -2, "overlapped by \(-e.closestGap) pt")
        #expect(e.leftVX < 0 && e.rightVX > 0, "left \(e.leftVX), right \(e.rightVX)")
    }

    /// Two bullets that pass each other with a gap of 2 pt keep their velocities: the bullet sweep only stops a
    /// pair that really meets (Part H, "Only touching bodies interact").
    @Test func bulletsPassingWithAGapKeepTheirVelocities() throws {
        let e = try Self.fling(speed: 5_000, offset: 22)
        #expect(e.leftVX == 5_000 && e.rightVX == -5_000, "left \(e.leftVX), right \(e.rightVX)")
    }
}
