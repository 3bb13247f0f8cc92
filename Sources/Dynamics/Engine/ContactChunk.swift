#if DYN_LANES8
/// Eight Float lanes (built with `-Xswiftc -DDYN_LANES8` for a target with AVX2: `make bench-native`).
typealias FloatW = SIMD8<Float>
typealias IntW = SIMD8<Int32>
#else
/// Four Float lanes: one SSE2 instruction per operation (Box2D v3's `b2FloatW` on SSE2 and NEON).
typealias FloatW = SIMD4<Float>
typealias IntW = SIMD4<Int32>
#endif
typealias MaskW = SIMDMask<IntW.MaskStorage>

/// Lanes per chunk.
let laneCount = FloatW.scalarCount

/// Lane-wise max, `a` where `a > b`, else `b`: one MAXPS (it differs from `Swift.max` only for NaN); the scalar
/// solve uses `maxF`, the same choice, so lanes and scalar agree bit for bit.
@inline(__always) func laneMax(_ a: FloatW, _ b: FloatW) -> FloatW { b.replacing(with: a, where: a .> b) }
/// Lane-wise min, `b` where `b < a`, else `a` (`Swift.min`'s choice; one MINPS).
@inline(__always) func laneMin(_ a: FloatW, _ b: FloatW) -> FloatW { a.replacing(with: b, where: b .< a) }
/// `laneMax` of one lane.
@inline(__always) func maxF(_ a: Float, _ b: Float) -> Float { a > b ? a : b }

/// One point of `laneCount` constraints, one field per quantity (structure of arrays).
struct LanePoint {
    var anchorAX = FloatW(repeating: 0)
    var anchorAY = FloatW(repeating: 0)
    var anchorBX = FloatW(repeating: 0)
    var anchorBY = FloatW(repeating: 0)
    var adjustedSeparation = FloatW(repeating: 0)
    var normalMass = FloatW(repeating: 0)
    var tangentMass = FloatW(repeating: 0)
    var normalImpulse = FloatW(repeating: 0)
    var tangentImpulse = FloatW(repeating: 0)
    var maxNormalImpulse = FloatW(repeating: 0)
    var relativeVelocity = FloatW(repeating: 0)
    var startSeparation = FloatW(repeating: 0)

    @inline(__always) mutating func set(_ l: Int, _ p: ConstraintPoint) {
        anchorAX[l] = p.anchorAX
        anchorAY[l] = p.anchorAY
        anchorBX[l] = p.anchorBX
        anchorBY[l] = p.anchorBY
        adjustedSeparation[l] = p.adjustedSeparation
        normalMass[l] = p.normalMass
        tangentMass[l] = p.tangentMass
        normalImpulse[l] = p.normalImpulse
        tangentImpulse[l] = p.tangentImpulse
        maxNormalImpulse[l] = p.maxNormalImpulse
        relativeVelocity[l] = p.relativeVelocity
        startSeparation[l] = p.startSeparation
    }

    @inline(__always) func get(_ l: Int) -> ConstraintPoint {
        ConstraintPoint(anchorAX: anchorAX[l], anchorAY: anchorAY[l], anchorBX: anchorBX[l], anchorBY: anchorBY[l],
                        adjustedSeparation: adjustedSeparation[l], normalMass: normalMass[l],
                        tangentMass: tangentMass[l], normalImpulse: normalImpulse[l],
                        tangentImpulse: tangentImpulse[l], maxNormalImpulse: maxNormalImpulse[l],
                        relativeVelocity: relativeVelocity[l], startSeparation: startSeparation[l])
    }
}

/// `laneCount` contact constraints of one colour side by side (Box2D v3's `b2ContactConstraintSIMD`), written
/// once per step by the prepare stage in colour order, so that warm start, solve, relax and restitution stream
/// contiguous lanes and gather and scatter only the 32-byte body states. A lane without a constraint points
/// both sides at the dummy slot with zero masses and impulses, so its arithmetic changes nothing. The fields
/// every pass reads come first; restitution's come last.
struct ContactChunk {
    var slotA: IntW
    var slotB: IntW
    var invMassA = FloatW(repeating: 0)
    var invIA = FloatW(repeating: 0)
    var invMassB = FloatW(repeating: 0)
    var invIB = FloatW(repeating: 0)
    var normalX = FloatW(repeating: 0)
    var normalY = FloatW(repeating: 0)
    var friction = FloatW(repeating: 0)
    var biasRate = FloatW(repeating: 0)
    var massScale = FloatW(repeating: 1)
    var impulseScale = FloatW(repeating: 0)
    var p1 = LanePoint()
    var p2 = LanePoint()
    var restitution = FloatW(repeating: 0)
    var k11 = FloatW(repeating: 0)
    var k12 = FloatW(repeating: 0)
    var k22 = FloatW(repeating: 0)
    /// Non-zero where the two points are block-solved in the restitution passes.
    var block = IntW(repeating: 0)
    /// Persistent contact id per lane, -1 where the lane is empty.
    var contact = IntW(repeating: -1)

    /// An empty chunk: every lane on the dummy slot (read-only, `~dummy`).
    init(dummy: Int) {
        slotA = IntW(repeating: ~Int32(dummy))
        slotB = IntW(repeating: ~Int32(dummy))
    }

    /// A lane's slot as the chunk stores it: a side the solver never moves (zero inverse mass and inertia: the
    /// dummy that stands for static, sleeping and boundary bodies) as `~slot`, which the gathers read and the
    /// scatters skip. So no pass writes the dummy, which many lanes of one colour share: with the colours
    /// solved in blocks on several threads (docs/ENGINE.md, "Parallel step") every write has one owner.
    @inline(__always) static func laneSlot(_ slot: Int32, invMass: Float, invI: Float) -> Int32 {
        invMass == 0 && invI == 0 ? ~slot : slot
    }

    @inline(__always) mutating func set(_ l: Int, _ c: ContactConstraint) {
        slotA[l] = ContactChunk.laneSlot(c.slotA, invMass: c.invMassA, invI: c.invIA)
        slotB[l] = ContactChunk.laneSlot(c.slotB, invMass: c.invMassB, invI: c.invIB)
        invMassA[l] = c.invMassA
        invIA[l] = c.invIA
        invMassB[l] = c.invMassB
        invIB[l] = c.invIB
        normalX[l] = c.normalX
        normalY[l] = c.normalY
        friction[l] = c.friction
        biasRate[l] = c.biasRate
        massScale[l] = c.massScale
        impulseScale[l] = c.impulseScale
        p1.set(l, c.p1)
        p2.set(l, c.p2)
        restitution[l] = c.restitution
        k11[l] = c.k11
        k12[l] = c.k12
        k22[l] = c.k22
        block[l] = c.block ? 1 : 0
        contact[l] = c.contact
    }

    /// Lane `l` as a scalar constraint (`pointCount` is not kept in lanes: 2 where the lane has a second point).
    @inline(__always) func get(_ l: Int) -> ContactConstraint {
        var c = ContactConstraint()
        c.slotA = slotA[l] < 0 ? ~slotA[l] : slotA[l]
        c.slotB = slotB[l] < 0 ? ~slotB[l] : slotB[l]
        c.contact = contact[l]
        c.invMassA = invMassA[l]
        c.invIA = invIA[l]
        c.invMassB = invMassB[l]
        c.invIB = invIB[l]
        c.normalX = normalX[l]
        c.normalY = normalY[l]
        c.friction = friction[l]
        c.biasRate = biasRate[l]
        c.massScale = massScale[l]
        c.impulseScale = impulseScale[l]
        c.p1 = p1.get(l)
        c.p2 = p2.get(l)
        c.pointCount = c.p2.normalMass > 0 ? 2 : 1
        c.restitution = restitution[l]
        c.k11 = k11[l]
        c.k12 = k12[l]
        c.k22 = k22[l]
        c.block = block[l] != 0
        return c
    }
}

extension UnsafeMutablePointer where Pointee == ContactChunk {
    /// The chunk's first and second points in place (stored properties at fixed offsets).
    @inline(__always) var point1: UnsafeMutablePointer<LanePoint> {
        (UnsafeMutableRawPointer(self) + MemoryLayout<ContactChunk>.offset(of: \ContactChunk.p1)!)
            .assumingMemoryBound(to: LanePoint.self)
    }
    @inline(__always) var point2: UnsafeMutablePointer<LanePoint> {
        (UnsafeMutableRawPointer(self) + MemoryLayout<ContactChunk>.offset(of: \ContactChunk.p2)!)
            .assumingMemoryBound(to: LanePoint.self)
    }
}

/// The velocities (and, for the passes that need separations, the position deltas) of one side of a chunk's
/// constraints, gathered from the body states: lane `l` holds body `slots[l]`.
struct LaneBodies {
    var vx: FloatW
    var vy: FloatW
    var w: FloatW
    var dpx = FloatW(repeating: 0)
    var dpy = FloatW(repeating: 0)
    var qc = FloatW(repeating: 1)
    var qs = FloatW(repeating: 0)

    // Gather and scatter are deliberately not inlined: inlined, the optimizer sees lane vectors built from
    // scalars and taken apart into scalars again, and turns the lane arithmetic between them into scalar or
    // transposed code (twice the instructions); behind a call, the lanes stay vectors.

    /// Gathers the velocities only (warm start).
    @inline(never) init(velocities s: UnsafeMutablePointer<SolverBody>, _ slots: IntW) {
        vx = FloatW(repeating: 0)
        vy = FloatW(repeating: 0)
        w = FloatW(repeating: 0)
        for l in 0..<laneCount {
            let k = slots[l]
            let v = s[Int(k < 0 ? ~k : k)].velocity
            vx[l] = v.x
            vy[l] = v.y
            w[l] = v.z
        }
    }

    /// Gathers velocities and position deltas (solve, relax, restitution).
    @inline(never) init(_ s: UnsafeMutablePointer<SolverBody>, _ slots: IntW) {
        vx = FloatW(repeating: 0)
        vy = FloatW(repeating: 0)
        w = FloatW(repeating: 0)
        for l in 0..<laneCount {
            let k = slots[l]
            let b = s[Int(k < 0 ? ~k : k)]
            vx[l] = b.velocity.x
            vy[l] = b.velocity.y
            w[l] = b.velocity.z
            dpx[l] = b.delta.x
            dpy[l] = b.delta.y
            qc[l] = b.delta.z
            qs[l] = b.delta.w
        }
    }

    /// Writes the velocities back. The constraints of a colour share no moving body; a side that does not move
    /// (`~slot`: the dummy, which may sit in several lanes) is not written.
    @inline(__always) func scatter(_ s: UnsafeMutablePointer<SolverBody>, _ slots: IntW) {
        LaneBodies.scatter(s, slots, vx, vy, w)
    }

    @inline(never) static func scatter(_ s: UnsafeMutablePointer<SolverBody>, _ slots: IntW, _ vx: FloatW,
                                          _ vy: FloatW, _ w: FloatW) {
        // Most chunks move every side: one vector test, then the stores without a test per lane.
        if all(slots .>= 0) {
            for l in 0..<laneCount { s[Int(slots[l])].velocity = SIMD4(vx[l], vy[l], w[l], 0) }
            return
        }
        for l in 0..<laneCount where slots[l] >= 0 {
            s[Int(slots[l])].velocity = SIMD4(vx[l], vy[l], w[l], 0)
        }
    }
}
