/// The solver's state of one awake body during a step (Box2D v3's `b2BodyState`): 32 bytes, two 16-byte
/// vectors, so that the wide solver gathers a body with two loads and writes its velocity back with one store.
/// - `velocity` = (vx, vy, w, 0): linear velocity of the centre of mass (pt/s) and angular velocity (rad/s);
///   lane 3 is spare (Box2D keeps body flags there; nothing in the solve reads flags) and stays 0.
/// - `delta` = (dpx, dpy, cos, sin): how far the centre of mass has moved and the rotation it has turned since
///   the step began.
/// Everything is `Float`: the solver works on per-step deltas and on anchors relative to the centres of mass,
/// never on world positions, so an 8 000 pt world loses nothing (docs/ENGINE.md, "Precision"). The persistent
/// positions stay `Double` in `Body`. Slots: `states[0 ..< awakeBodies.count]` follow `awakeBodies`, then one
/// static dummy (zero velocity, no delta) stands for every body that does not move (static, sleeping,
/// boundary segments).
struct SolverBody {
    var velocity = SIMD4<Float>(0, 0, 0, 0)
    var delta = SIMD4<Float>(0, 0, 1, 0)

    /// The dummy and every unmoved body: at rest, not displaced, not turned.
    static let rest = SolverBody()

    init() {}

    init(v: Vec2, w: Double) {
        velocity = SIMD4(Float(v.x), Float(v.y), Float(w), 0)
    }

    // Double views for the scalar joint solvers, which keep Double arithmetic.
    @inline(__always) var v: Vec2 {
        get { Vec2(Double(velocity.x), Double(velocity.y)) }
        set { velocity.x = Float(newValue.x); velocity.y = Float(newValue.y) }
    }
    @inline(__always) var w: Double {
        get { Double(velocity.z) }
        set { velocity.z = Float(newValue) }
    }
    @inline(__always) var dp: Vec2 { Vec2(Double(delta.x), Double(delta.y)) }
    @inline(__always) var dq: Rot { Rot(c: Double(delta.z), s: Double(delta.w)) }
}

/// A solver slot's inverse mass and inverse rotational inertia (zero for the dummy), kept beside the hot state:
/// the contact constraints carry their own copies (Box2D stores mA, iA, mB, iB per constraint), so only the
/// prepare stages, the integrators and the joints read this.
struct SolverMass {
    var invMass = 0.0
    var invI = 0.0

    /// True when the solver may change the slot's velocity.
    @inline(__always) var moves: Bool { invMass > 0 || invI > 0 }
}

/// Per-step integration inputs of one slot, kept apart from `SolverBody` so that the contact solver's
/// working set stays small.
struct BodyMotion {
    var accel = SIMD2<Float>(0, 0)
    var angularAccel: Float = 0
    var linearDampingFactor: Float = 1
    var angularDampingFactor: Float = 1
}

/// The solver's view of the step's bodies: the hot states, their masses, and the exact angle each has turned
/// this step (`turned`, Double, summed by `integratePositions`, so that a body that never turns keeps its exact
/// angle and the animator's reported angle is not rounded to Float). `dummy` is the static slot.
struct SolverBodies {
    let state: UnsafeMutablePointer<SolverBody>
    let mass: UnsafePointer<SolverMass>
    let turned: UnsafeMutablePointer<Double>
    let dummy: Int

    /// The slot of body `index` given the world's `solverSlot` (-1, and a boundary's -1 body, map to the dummy).
    @inline(__always) func slot(_ index: Int32, _ solverSlot: UnsafeBufferPointer<Int32>) -> Int {
        if index < 0 { return dummy }
        let s = solverSlot[Int(index)]
        return s < 0 ? dummy : Int(s)
    }

    /// Resets the dummy after a pass: constraints give it zero mass, so nothing should have moved it, but a
    /// joint's scalar write-back of an unchanged value must never let it drift.
    @inline(__always) func resetDummy() {
        state[dummy] = .rest
    }
}

/// `v` scaled down to at most `maxLength` (Float lanes of `clampLength`; non-finite input takes the Double path,
/// which maps it to a finite vector).
@inline(__always) func clampLengthF(_ v: SIMD2<Float>, _ maxLength: Float) -> SIMD2<Float> {
    let lsq = v.x * v.x + v.y * v.y
    if lsq <= maxLength * maxLength { return v }
    let c = slowClampLength(Vec2(Double(v.x), Double(v.y)), Double(maxLength))
    return SIMD2(Float(c.x), Float(c.y))
}

/// Clamps to [-limit, limit], NaN to 0.
@inline(__always) func clampMagnitudeF(_ v: Float, _ limit: Float) -> Float {
    if v > limit { return limit }
    if v < -limit { return -limit }
    return v.isNaN ? 0 : v
}

/// Velocities from gravity, forces and damping for every awake slot (Box2D's `b2IntegrateVelocitiesTask`).
/// `range`: the slots to integrate (a block of the parallel step; all of `m` by default).
func integrateVelocities(_ b: SolverBodies, _ m: UnsafeBufferPointer<BodyMotion>, _ range: Range<Int>? = nil,
                         h: Float, maxW: Float) {
    let s = b.state
    for i in range ?? 0 ..< m.count where b.mass[i].invMass > 0 {
        let mo = m[i]
        var state = s[i].velocity
        var v = (SIMD2(state.x, state.y) + mo.accel * h) * mo.linearDampingFactor
        v = clampLengthF(v, Float(Tuning.maxLinearSpeed))
        state.x = v.x
        state.y = v.y
        if b.mass[i].invI > 0 {
            state.z = clampMagnitudeF((state.z + mo.angularAccel * h) * mo.angularDampingFactor, maxW)
        }
        s[i].velocity = state
    }
}

/// Position and rotation deltas from the velocities for every awake slot (Box2D's `b2IntegratePositionsTask`);
/// the exact turned angle is summed in Double beside the Float rotation.
func integratePositions(_ b: SolverBodies, _ range: Range<Int>, h hd: Double, maxW: Float) {
    let s = b.state
    let h = Float(hd)
    for i in range where b.mass[i].invMass > 0 {
        var vel = s[i].velocity
        let v = clampLengthF(SIMD2(vel.x, vel.y), Float(Tuning.maxLinearSpeed))
        vel.x = v.x
        vel.y = v.y
        var d = s[i].delta
        d.x += v.x * h
        d.y += v.y * h
        let w = vel.z
        if w != 0 {
            let wc = clampMagnitudeF(w, maxW)
            vel.z = wc
            // First-order rotation update, renormalised (Box2D's b2IntegrateRotation).
            let da = h * wc
            let c2 = d.z - da * d.w, s2 = d.w + da * d.z
            let inv = 1 / (c2 * c2 + s2 * s2).squareRoot()
            d.z = c2 * inv
            d.w = s2 * inv
            b.turned[i] += hd * Double(wc)
        }
        s[i].velocity = vel
        s[i].delta = d
    }
}
