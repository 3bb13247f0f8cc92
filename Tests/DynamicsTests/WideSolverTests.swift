import Testing
@testable import Dynamics

/// The colour-major lane solve (docs/ARCHITECTURE.md, "The physics step") against its scalar reference, and
/// the overflow colour.

/// SplitMix64: reproducible random numbers for the constraint sets.
private struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func float(_ lo: Float, _ hi: Float) -> Float {
        lo + (hi - lo) * Float(next() >> 40) / Float(1 << 24)
    }
}

/// A random point: anchors within 40 pt of the centres, a separation from 3 pt apart to 2 pt deep, warm-start
/// impulses, masses from the effective-mass formula's range.
private func randomPoint(_ r: inout Random) -> ConstraintPoint {
    var p = ConstraintPoint()
    p.anchorAX = r.float(-40, 40); p.anchorAY = r.float(-40, 40)
    p.anchorBX = r.float(-40, 40); p.anchorBY = r.float(-40, 40)
    p.adjustedSeparation = r.float(-2, 3)
    p.normalMass = r.float(0.2, 2)
    p.tangentMass = r.float(0.2, 2)
    p.normalImpulse = r.float(0, 50)
    p.tangentImpulse = r.float(-10, 10)
    p.relativeVelocity = r.float(-400, 50)
    p.startSeparation = r.float(-1, 3)
    return p
}

/// `count` (≤ laneCount) random constraints between distinct moving slots 0, 1, 2, ... (or against the dummy
/// slot `dummy` every third one), a third of them with one point, some with a block-solvable second point.
private func randomConstraints(_ r: inout Random, count: Int, dummy: Int) -> [ContactConstraint] {
    (0..<count).map { k in
        var c = ContactConstraint()
        c.slotA = Int32(2 * k)
        c.slotB = k % 3 == 2 ? Int32(dummy) : Int32(2 * k + 1)
        c.contact = Int32(k)
        c.invMassA = r.float(0.1, 2); c.invIA = r.float(1e-4, 1e-2)
        c.invMassB = c.slotB == Int32(dummy) ? 0 : r.float(0.1, 2)
        c.invIB = c.slotB == Int32(dummy) ? 0 : r.float(1e-4, 1e-2)
        let angle = r.float(0, 6.28)
        c.normalX = Float(cosine(Double(angle))); c.normalY = Float(sine(Double(angle)))
        c.friction = r.float(0, 0.8)
        c.biasRate = r.float(10, 60); c.massScale = r.float(0.5, 1); c.impulseScale = r.float(0, 0.5)
        c.restitution = k % 2 == 0 ? r.float(0.3, 0.9) : 0
        c.p1 = randomPoint(&r)
        c.pointCount = k % 3 == 1 ? 1 : 2
        if c.pointCount == 2 {
            c.p2 = randomPoint(&r)
            if k % 2 == 0 {
                // Both points well apart: the lanes take the rigid block path.
                c.p1.adjustedSeparation = r.float(2, 3)
                c.p2.adjustedSeparation = r.float(2, 3)
            }
            c.k11 = r.float(2, 3); c.k22 = r.float(2, 3); c.k12 = r.float(-0.5, 0.5)
            c.block = true
        }
        return c
    }
}

/// Random body states for slots 0 ..< count (velocities, small position and rotation deltas); the dummy at rest.
private func randomStates(_ r: inout Random, count: Int) -> [SolverBody] {
    var s = (0..<count).map { _ in
        var b = SolverBody()
        b.velocity = SIMD4(r.float(-200, 200), r.float(-200, 200), r.float(-3, 3), 0)
        let turn = r.float(-0.1, 0.1)
        b.delta = SIMD4(r.float(-2, 2), r.float(-2, 2), Float(cosine(Double(turn))), Float(sine(Double(turn))))
        return b
    }
    s.append(.rest)
    return s
}

private func close(_ a: Float, _ b: Float) -> Bool { abs(a - b) <= 1e-4 * max(1, abs(a), abs(b)) }

@Test(.timeLimit(.minutes(3))) func laneSolveAgreesWithTheScalarSolveOnRandomConstraints() {
    var r = Random(state: 7)
    for round in 0..<50 {
        // The last round leaves lanes empty (they point at the dummy and must change nothing).
        let count = round == 49 ? max(1, laneCount - 3) : laneCount
        let dummy = 2 * laneCount
        var scalar = randomConstraints(&r, count: count, dummy: dummy)
        var scalarStates = randomStates(&r, count: dummy)
        var laneStates = scalarStates
        var chunk = ContactChunk(dummy: dummy)
        for (l, c) in scalar.enumerated() { chunk.set(l, c) }
        let invH: Float = 240
        scalarStates.withUnsafeMutableBufferPointer { sb in
            let s = sb.baseAddress!
            for k in scalar.indices { warmStartContact(scalar[k], s) }
            for useBias in [true, false] {
                for k in scalar.indices { solveContact(&scalar[k], s, invH: invH, useBias: useBias) }
            }
            for k in scalar.indices { restitutionContact(&scalar[k], s, dummy: dummy, invH: invH) }
        }
        laneStates.withUnsafeMutableBufferPointer { sb in
            let s = sb.baseAddress!
            withUnsafeMutablePointer(to: &chunk) { c in
                warmStartChunk(c, s)
                solveChunk(c, s, invH: invH, useBias: true)
                solveChunk(c, s, invH: invH, useBias: false)
                restitutionChunk(c, s, invH: invH)
            }
        }
        for i in 0...dummy {
            for k in 0..<3 {
                #expect(close(scalarStates[i].velocity[k], laneStates[i].velocity[k]),
                        "round \(round) slot \(i) component \(k)")
            }
        }
        #expect(laneStates[dummy].velocity == .zero, "the dummy never moves")
        for (l, c) in scalar.enumerated() {
            #expect(close(c.p1.normalImpulse, chunk.p1.normalImpulse[l]))
            #expect(close(c.p1.tangentImpulse, chunk.p1.tangentImpulse[l]))
            #expect(close(c.p1.maxNormalImpulse, chunk.p1.maxNormalImpulse[l]))
            if c.pointCount > 1 {
                #expect(close(c.p2.normalImpulse, chunk.p2.normalImpulse[l]))
                #expect(close(c.p2.tangentImpulse, chunk.p2.tangentImpulse[l]))
            }
        }
    }
}

/// One plank under more small boxes than there are colours: the plank's constraints cannot all be coloured,
/// the rest go to the overflow, and the overflow is solved (every box rests on the plank, none sinks in).
@Test(.timeLimit(.minutes(3))) func contactsBeyondTheColoursAreSolvedInTheOverflow() throws {
    let a = DynamicAnimator(width: 2000, height: 600)
    _ = a.add(GravityBehavior())
    _ = a.add(CollisionBehavior())
    let n = ContactColouring.colourCount + 16
    let plank = try a.addItem(width: Double(n) * 30 + 20, height: 20, center: Vec2(1000, 590))
    var boxes: [ItemID] = []
    for k in 0..<n {
        boxes.append(try a.addItem(width: 20, height: 20, center: Vec2(1000 + (Double(k) - Double(n - 1) / 2) * 30, 569),
                                   properties: .init(friction: 0.5)))
    }
    var overflowSeen = 0
    a.run(seconds: 1) { overflowSeen = max(overflowSeen, a.world.contactSolver.overflow.count) }
    #expect(overflowSeen > 0, "the plank has \(n) box contacts and the floor, more than \(ContactColouring.colourCount) colours")
    let plankTop = a.center(plank).y - 10
    for id in boxes {
        let bottom = a.center(id).y + 10
        #expect(bottom <= plankTop + 1 && bottom > plankTop - 3, "box bottom \(bottom), plank top \(plankTop)")
    }
}

/// Joints are coloured with the contacts (Box2D's constraint graph): a chain of rods, each sharing a body with
/// the next, takes a different colour per link, and the chain holds its lengths while it swings.
@Test(.timeLimit(.minutes(3))) func aChainOfRodsTakesOneColourPerSharedBodyAndHoldsItsLengths() throws {
    let a = makeWorld(collision: false)
    var ids: [ItemID] = []
    for k in 0..<5 { ids.append(try a.addItem(width: 10, height: 10, center: Vec2(300 + Double(k) * 40, 100))) }
    _ = try a.add(AttachmentBehavior.anchored(ids[0], to: Vec2(260, 100)))
    for k in 1..<5 { _ = try a.add(AttachmentBehavior.items(ids[k - 1], ids[k])) }
    a.step()
    let solver = a.world.contactSolver
    var colourOf: [Int: Int] = [:]
    for colour in 0..<ContactColouring.colourCount {
        for i in solver.jointStarts[colour] ..< solver.jointStarts[colour + 1] { colourOf[Int(solver.jointOrder[i])] = colour }
    }
    #expect(colourOf.count == 5, "every rod coloured, none in the overflow")
    let joints = a.world.joints
    for j in 0..<joints.count {
        for k in (j + 1)..<joints.count where joints[k].bodyA == joints[j].bodyB || joints[k].bodyB == joints[j].bodyA
            || joints[k].bodyA == joints[j].bodyA || (joints[k].bodyB >= 0 && joints[k].bodyB == joints[j].bodyB) {
            #expect(colourOf[j] != colourOf[k], "rods \(j) and \(k) share a body")
        }
    }
    var worst = 0.0
    a.run(seconds: 2) {
        for k in 1..<5 { worst = max(worst, abs(distance(a.center(ids[k - 1]), a.center(ids[k])) - 40)) }
    }
    #expect(worst < 0.4, "longest stretch \(worst) pt of 40")
}
