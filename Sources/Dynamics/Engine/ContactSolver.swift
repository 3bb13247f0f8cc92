/// Soft-constraint coefficients (Box2D v3's `b2Softness`): an implicit spring of `hertz` with damping ratio
/// `zeta`, expressed as a velocity bias rate and scales for the effective mass and the accumulated impulse.
struct Softness {
    var biasRate = 0.0
    var massScale = 1.0
    var impulseScale = 0.0

    static let rigid = Softness()

    init() {}

    init(hertz: Double, zeta: Double, h: Double) {
        if hertz == 0 { return }
        let omega = 2 * Double.pi * hertz
        let a1 = 2 * zeta + h * omega
        let a2 = h * omega * a1
        let a3 = 1 / (1 + a2)
        biasRate = omega / a1
        massScale = a2 * a3
        impulseScale = a3
    }
}

/// One side's state in the scalar contact solve.
private struct ScalarBody {
    var vx: Float, vy: Float, w: Float
    let dpx: Float, dpy: Float, qc: Float, qs: Float

    @inline(__always) init(_ b: SolverBody) {
        vx = b.velocity.x; vy = b.velocity.y; w = b.velocity.z
        dpx = b.delta.x; dpy = b.delta.y; qc = b.delta.z; qs = b.delta.w
    }

    @inline(__always) func store(_ s: UnsafeMutablePointer<SolverBody>, _ i: Int) {
        s[i].velocity = SIMD4(vx, vy, w, 0)
    }
}

/// The scalar contact solve: `LanePair`'s arithmetic on one constraint, operation for operation.
private struct ScalarPair {
    var A: ScalarBody
    var B: ScalarBody
    let mA: Float, iA: Float, mB: Float, iB: Float, nx: Float, ny: Float

    @inline(__always) init(_ c: ContactConstraint, _ s: UnsafeMutablePointer<SolverBody>) {
        A = ScalarBody(s[Int(c.slotA)])
        B = ScalarBody(s[Int(c.slotB)])
        mA = c.invMassA; iA = c.invIA; mB = c.invMassB; iB = c.invIB
        nx = c.normalX; ny = c.normalY
    }

    @inline(__always) func separation(_ p: ConstraintPoint) -> Float {
        let x = (B.dpx - A.dpx) + (B.qc * p.anchorBX - B.qs * p.anchorBY) - (A.qc * p.anchorAX - A.qs * p.anchorAY)
        let y = (B.dpy - A.dpy) + (B.qs * p.anchorBX + B.qc * p.anchorBY) - (A.qs * p.anchorAX + A.qc * p.anchorAY)
        return (x * nx + y * ny) + p.adjustedSeparation
    }

    @inline(__always) func relativeVelocity(_ p: ConstraintPoint) -> (Float, Float) {
        ((B.vx - B.w * p.anchorBY) - (A.vx - A.w * p.anchorAY), (B.vy + B.w * p.anchorBX) - (A.vy + A.w * p.anchorAX))
    }

    @inline(__always) mutating func apply(_ p: ConstraintPoint, _ px: Float, _ py: Float) {
        A.vx -= px * mA
        A.vy -= py * mA
        A.w -= iA * (p.anchorAX * py - p.anchorAY * px)
        B.vx += px * mB
        B.vy += py * mB
        B.w += iB * (p.anchorBX * py - p.anchorBY * px)
    }

    @inline(__always) mutating func normal(_ p: inout ConstraintPoint, _ sep: Float, _ c: ContactConstraint,
                                           invH: Float, useBias: Bool) {
        var bias: Float = 0, massScale: Float = 1, impulseScale: Float = 0
        if sep > 0 {
            bias = sep * invH
        } else if useBias {
            bias = maxF(c.biasRate * sep, -Float(Tuning.contactPushMaxVelocity))
            massScale = c.massScale
            impulseScale = c.impulseScale
        }
        let (dvx, dvy) = relativeVelocity(p)
        let vn = dvx * nx + dvy * ny
        var impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse
        let newImpulse = maxF(p.normalImpulse + impulse, 0)
        impulse = newImpulse - p.normalImpulse
        p.normalImpulse = newImpulse
        p.maxNormalImpulse = maxF(p.maxNormalImpulse, impulse)
        apply(p, nx * impulse, ny * impulse)
    }

    /// `LanePair.blockSolve` on one constraint.
    @inline(__always) mutating func blockSolve(_ c: ContactConstraint, _ t1: Float, _ t2: Float, _ x1Old: Float,
                                               _ x2Old: Float) -> (Float, Float) {
        let (dv1x, dv1y) = relativeVelocity(c.p1)
        let (dv2x, dv2y) = relativeVelocity(c.p2)
        let vn1 = dv1x * nx + dv1y * ny, vn2 = dv2x * nx + dv2y * ny
        let k11 = c.k11, k12 = c.k12, k22 = c.k22
        let b1 = vn1 - t1 - (k11 * x1Old + k12 * x2Old)
        let b2 = vn2 - t2 - (k12 * x1Old + k22 * x2Old)
        var x1: Float = 0, x2: Float = 0
        let det = k11 * k22 - k12 * k12
        let both1 = -(k22 * b1 - k12 * b2) / det, both2 = -(k11 * b2 - k12 * b1) / det
        let only1 = -b1 / k11, only2 = -b2 / k22
        if both1 >= 0 && both2 >= 0 {
            x1 = both1; x2 = both2
        } else if only1 >= 0 && k12 * only1 + b2 >= 0 {
            x1 = only1
        } else if only2 >= 0 && k12 * only2 + b1 >= 0 {
            x2 = only2
        }
        let d1 = x1 - x1Old, d2 = x2 - x2Old
        apply(c.p1, nx * d1, ny * d1)
        apply(c.p2, nx * d2, ny * d2)
        return (x1, x2)
    }

    @inline(__always) mutating func friction(_ p: inout ConstraintPoint, _ friction: Float) {
        let (dvx, dvy) = relativeVelocity(p)
        let vt = dvx * ny - dvy * nx
        var impulse = -p.tangentMass * vt
        let maxFriction = friction * p.normalImpulse
        let newImpulse = min(maxF(p.tangentImpulse + impulse, -maxFriction), maxFriction)
        impulse = newImpulse - p.tangentImpulse
        p.tangentImpulse = newImpulse
        apply(p, ny * impulse, -nx * impulse)
    }
}

/// One constraint's solve or relax pass in scalar Float: the overflow colour's solve and the reference the
/// lanes follow (`solveChunk`; a one-point constraint's second point has zero mass, so it is skipped).
@inline(__always)
func solveContact(_ c: inout ContactConstraint, _ s: UnsafeMutablePointer<SolverBody>, invH: Float, useBias: Bool) {
    var pair = ScalarPair(c, s)
    let two = c.pointCount > 1
    let sep1 = pair.separation(c.p1), sep2 = two ? pair.separation(c.p2) : 0
    let gap = Float(Tuning.linearSlop)
    if c.block && sep1 > gap && sep2 > gap {
        let x1Old = c.p1.normalImpulse, x2Old = c.p2.normalImpulse
        (c.p1.normalImpulse, c.p2.normalImpulse) = pair.blockSolve(c, -maxF(sep1, 0) * invH, -maxF(sep2, 0) * invH,
                                                                   x1Old, x2Old)
        c.p1.maxNormalImpulse = maxF(c.p1.maxNormalImpulse, c.p1.normalImpulse - x1Old)
        c.p2.maxNormalImpulse = maxF(c.p2.maxNormalImpulse, c.p2.normalImpulse - x2Old)
    } else {
        pair.normal(&c.p1, sep1, c, invH: invH, useBias: useBias)
        if two { pair.normal(&c.p2, sep2, c, invH: invH, useBias: useBias) }
    }
    pair.friction(&c.p1, c.friction)
    if two { pair.friction(&c.p2, c.friction) }
    pair.A.store(s, Int(c.slotA))
    pair.B.store(s, Int(c.slotB))
}

/// One constraint's warm start in scalar Float.
@inline(__always)
func warmStartContact(_ c: ContactConstraint, _ s: UnsafeMutablePointer<SolverBody>) {
    var pair = ScalarPair(c, s)
    pair.apply(c.p1, pair.nx * c.p1.normalImpulse + pair.ny * c.p1.tangentImpulse,
               pair.ny * c.p1.normalImpulse - pair.nx * c.p1.tangentImpulse)
    if c.pointCount > 1 {
        pair.apply(c.p2, pair.nx * c.p2.normalImpulse + pair.ny * c.p2.tangentImpulse,
                   pair.ny * c.p2.normalImpulse - pair.nx * c.p2.tangentImpulse)
    }
    pair.A.store(s, Int(c.slotA))
    pair.B.store(s, Int(c.slotB))
}

/// The step's contact constraints, colour-major (docs/ARCHITECTURE.md, "The physics step"): colour `k`'s
/// constraints are `chunks[chunkStarts[k] ..< chunkStarts[k + 1]]`, `laneCount` to a chunk (the last chunk of a
/// colour padded with empty lanes); what fits no colour is `overflow`, solved scalar after the colours. Built
/// once per step by `prepare`; the scratch keeps its capacity, so a steady-state step allocates nothing.
struct ContactSolver {
    var chunks: [ContactChunk] = []
    var chunkStarts: [Int] = []
    var overflow: [ContactConstraint] = []
    var colouring = ContactColouring()
    /// The step's active joints colour by colour (entries >= 0: attachment joints, negative: constraint joints,
    /// -1 - index): colour `k`'s are `jointOrder[jointStarts[k] ..< jointStarts[k + 1]]`, the overflow's last.
    var jointOrder: [Int32] = []
    var jointStarts: [Int] = []
    private var jointEntries: [SIMD2<Int32>] = []
    /// Per lane of `chunks`, the index of its entry in `colouring.entries` (-1: empty). Scratch of `prepare`.
    private var laneEntry: [Int32] = []
    /// Normal impulses before the restitution passes (two per lane, then two per overflow constraint).
    var savedChunkImpulses: [FloatW] = []
    var savedOverflowImpulses: [Float] = []

    /// Colours the contacts of `ids` (the world's `awakeContacts`) with points and a moving body, in that order,
    /// and writes their constraints.
    /// The constraints are written chunk by chunk in `stages`' blocks (each chunk by one block).
    mutating func prepare(_ contacts: UnsafeMutableBufferPointer<Contact>, ids: UnsafeBufferPointer<Int32>,
                          _ b: SolverBodies, solverSlot: UnsafeBufferPointer<Int32>, soft: Softness,
                          staticSoft: Softness, stages: ParallelStages = ParallelStages(nil, awakeBodies: 0)) {
        colouring.colour(contacts, ids: ids, b, solverSlot: solverSlot)
        let n = ContactColouring.colourCount
        chunkStarts.removeAll(keepingCapacity: true)
        var total = 0
        for k in 0..<n {
            chunkStarts.append(total)
            total += (colouring.counts[k] + laneCount - 1) / laneCount
        }
        chunkStarts.append(total)
        // Every lane of a full chunk is written below (`ContactChunk.set` writes every field), so only each
        // colour's last, partly filled chunk is reset to empty lanes: the chunks are not rewritten whole every step.
        if chunks.count > total {
            chunks.removeLast(chunks.count - total)
        } else if chunks.count < total {
            chunks.append(contentsOf: repeatElement(ContactChunk(dummy: b.dummy), count: total - chunks.count))
        }
        for k in 0..<n where colouring.counts[k] % laneCount != 0 {
            chunks[chunkStarts[k + 1] - 1] = ContactChunk(dummy: b.dummy)
        }
        overflow.removeAll(keepingCapacity: true)
        // Lane by lane in colour order: colour k's next free lane is `next[k]` (a lane index over all chunks);
        // `laneEntry` maps each lane to its entry (-1: empty), so that the constraints can be written a chunk at
        // a time (a chunk's lanes share vectors, so one chunk is one block's).
        var next: [Int] = [], lanes: [Int32] = []
        swap(&next, &colouring.fill)
        swap(&lanes, &laneEntry)
        defer { swap(&next, &colouring.fill); swap(&lanes, &laneEntry) }
        next.removeAll(keepingCapacity: true)
        for k in 0..<n { next.append(chunkStarts[k] * laneCount) }
        guard stages.isParallel else {
            // One thread: each constraint straight into its lane, in entry order.
            next.withUnsafeMutableBufferPointer { next in
            chunks.withUnsafeMutableBufferPointer { out in
                colouring.entries.withUnsafeBufferPointer { entries in
                    for e in entries {
                        let id = Int(e.contact)
                        let cc = makeConstraint(contacts[id], id: id, Int(e.slotA), Int(e.slotB), b, soft: soft,
                                                staticSoft: staticSoft)
                        let k = Int(e.colour)
                        if k < n {
                            let at = next[k]
                            next[k] = at + 1
                            out[at / laneCount].set(at % laneCount, cc)
                        } else {
                            overflow.append(cc)
                        }
                    }
                }
            }
            }
            return
        }
        lanes.removeAll(keepingCapacity: true)
        lanes.append(contentsOf: repeatElement(-1, count: total * laneCount))
        next.withUnsafeMutableBufferPointer { next in
        lanes.withUnsafeMutableBufferPointer { laneOf in
        chunks.withUnsafeMutableBufferPointer { out in
            colouring.entries.withUnsafeBufferPointer { entries in
                for (x, e) in entries.enumerated() {
                    let k = Int(e.colour)
                    if k < n {
                        laneOf[next[k]] = Int32(x)
                        next[k] += 1
                    } else {
                        let id = Int(e.contact)
                        overflow.append(makeConstraint(contacts[id], id: id, Int(e.slotA), Int(e.slotB), b, soft: soft,
                                                       staticSoft: staticSoft))
                    }
                }
                let laneEntries = UnsafeBufferPointer(laneOf)
                stages.run(total, minPerBlock: 16) { range in
                    for chunk in range {
                        for l in 0..<laneCount {
                            let x = laneEntries[chunk * laneCount + l]
                            guard x >= 0 else { continue }
                            let e = entries[Int(x)], id = Int(e.contact)
                            out[chunk].set(l, makeConstraint(contacts[id], id: id, Int(e.slotA), Int(e.slotB), b,
                                                             soft: soft, staticSoft: staticSoft))
                        }
                    }
                }
            }
        }
        }
        }
    }

    /// Colours the active joints before the contacts (Box2D's constraint graph holds both): a joint takes the
    /// lowest colour free on its moving bodies, or the overflow. Call `colouring.reset` first and the joints'
    /// prepare stages before (they set `active` and the slots). Only the joints listed (the awake ones, the
    /// ones just prepared) are looked at.
    mutating func colourJoints(_ joints: UnsafeMutableBufferPointer<Joint>, ids jointIDs: UnsafeBufferPointer<Int32>,
                               _ constraintJoints: UnsafeMutableBufferPointer<ConstraintJoint>,
                               ids constraintJointIDs: UnsafeBufferPointer<Int32>, _ b: SolverBodies) {
        let n = ContactColouring.colourCount
        jointEntries.removeAll(keepingCapacity: true)
        @inline(__always) func add(_ id: Int32, _ a: Int32, _ c: Int32) {
            let ia = Int(a), ib = Int(c)
            let colour = colouring.take(ia, ib, movesA: b.mass[ia].moves, movesB: b.mass[ib].moves, lowest: true)
            jointEntries.append(SIMD2(id, Int32(colour)))
        }
        for id in jointIDs where joints[Int(id)].active { add(id, joints[Int(id)].slotA, joints[Int(id)].slotB) }
        for id in constraintJointIDs where constraintJoints[Int(id)].active {
            add(-1 - id, constraintJoints[Int(id)].slotA, constraintJoints[Int(id)].slotB)
        }
        // Counting sort by colour, stable (each colour keeps the joints' order).
        jointStarts.removeAll(keepingCapacity: true)
        jointStarts.append(contentsOf: repeatElement(0, count: n + 2))
        for e in jointEntries { jointStarts[Int(e.y) + 1] += 1 }
        for k in 0..<(n + 1) { jointStarts[k + 1] += jointStarts[k] }
        jointOrder.removeAll(keepingCapacity: true)
        jointOrder.append(contentsOf: repeatElement(0, count: jointEntries.count))
        colouring.fill.removeAll(keepingCapacity: true)
        colouring.fill.append(contentsOf: jointStarts[0 ... n])
        for e in jointEntries {
            let k = Int(e.y)
            jointOrder[colouring.fill[k]] = e.x
            colouring.fill[k] += 1
        }
    }

    /// Colour `k`'s chunks.
    @inline(__always) func colour(_ k: Int) -> Range<Int> { chunkStarts[k] ..< chunkStarts[k + 1] }

    var colourCount: Int { ContactColouring.colourCount }

    /// Writes every constraint's impulses back into its persistent contact (each lane its own contact, so the
    /// chunks may be split over `stages`' blocks).
    func storeImpulses(_ contacts: UnsafeMutableBufferPointer<Contact>,
                       stages: ParallelStages = ParallelStages(nil, awakeBodies: 0)) {
        chunks.withUnsafeBufferPointer { chunks in
            stages.run(chunks.count, minPerBlock: 32) { range in
                for k in range {
                    let c = chunks.baseAddress! + k
                    for l in 0..<laneCount where c.pointee.contact[l] >= 0 {
                        let i = Int(c.pointee.contact[l])
                        contacts[i].p0.normalImpulse = Double(c.pointee.p1.normalImpulse[l])
                        contacts[i].p0.tangentImpulse = Double(c.pointee.p1.tangentImpulse[l])
                        if contacts[i].pointCount > 1 {
                            contacts[i].p1.normalImpulse = Double(c.pointee.p2.normalImpulse[l])
                            contacts[i].p1.tangentImpulse = Double(c.pointee.p2.tangentImpulse[l])
                        }
                    }
                }
            }
        }
        for c in overflow { Dynamics.storeImpulses(c, contacts) }
    }
}

/// The contact warm start of one colour's chunks, for the stage loops in `solve` (not inlined, so that a profile
/// shows the stages apart; one call per colour and pass).
@inline(never)
func warmStartContacts(_ chunks: UnsafeMutableBufferPointer<ContactChunk>, _ range: Range<Int>,
                       _ s: UnsafeMutablePointer<SolverBody>) {
    guard let base = chunks.baseAddress else { return }
    for i in range { warmStartChunk(base + i, s) }
}

/// The contact solve or relax pass of one colour's chunks.
@inline(never)
func solveContacts(_ chunks: UnsafeMutableBufferPointer<ContactChunk>, _ range: Range<Int>,
                   _ s: UnsafeMutablePointer<SolverBody>, invH: Float, useBias: Bool) {
    guard let base = chunks.baseAddress else { return }
    if useBias {
        for i in range { solveChunkBiased(base + i, s, invH: invH) }
    } else {
        for i in range { solveChunkRelaxed(base + i, s, invH: invH) }
    }
}
