extension PhysicsWorld {
    /// One fixed step of `dt`: proxies, contacts (linking islands, waking what touches awake bodies), the
    /// soft-step solver with sub-steps, then transforms, the bounds guard, sleep timers and island sleep.
    /// Every per-body stage walks the awake set only (Engine/AwakeSet.swift).
    mutating func step() {
        eventsThisStep = 0
        normalizeAwakeSet()
        prepareProxies()
        updateContacts()
        normalizeAwakeSet()
        // The solver's joints: those of the bodies awake now (a contact may have woken an island).
        buildAwakeJoints()
        // The solver's contacts: those of the bodies awake now (a contact may have woken an island).
        refreshAwakeContacts()
        solve()
        finalizeBodies()
        if sleepingEnabled { sleepIslands() }
        normalizeAwakeSet()
    }

    // MARK: solver

    private mutating func loadSolverBodies(h: Double) {
        let n = bodies.count
        states.removeAll(keepingCapacity: true)
        motion.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let b = bodies[i]
            guard b.isDynamicAwake else {
                states.append(SolverBody())
                motion.append(BodyMotion())
                continue
            }
            states.append(SolverBody(v: b.velocity, w: b.angularVelocity, invMass: b.invMass, invI: b.invInertia))
            motion.append(BodyMotion(accel: clampLength(b.gravity + b.force * b.invMass, Tuning.maxAcceleration),
                                     angularAccel: clampMagnitude(b.torque * b.invInertia, Tuning.maxAcceleration),
                                     linearDampingFactor: 1 / (1 + h * b.linearDamping),
                                     angularDampingFactor: 1 / (1 + h * b.angularDamping)))
        }
        states.append(SolverBody())
    }

    mutating func solve() {
        let substeps = Tuning.substeps
        let h = dt / Double(substeps)
        loadSolverBodies(h: h)
        let contactHertz = min(Tuning.contactHertzCap, 0.25 / h)
        let cctx = ContactSolverContext(
            soft: Softness(hertz: contactHertz, zeta: Tuning.contactDampingRatio, h: h),
            staticSoft: Softness(hertz: 2 * contactHertz, zeta: Tuning.contactDampingRatio, h: h), invH: 1 / h)
        let jctx = JointSolverContext(
            jointSoft: Softness(hertz: 2 * contactHertz, zeta: Tuning.jointDampingRatio, h: h), invH: 1 / h)
        let dummy = bodies.count
        let maxW = Tuning.maxRotationPerSubstep / h
        // Move the arrays into locals for the duration of the solve (no copy, no allocation) so that the
        // unsafe buffers do not overlap an access to `self`.
        let bodyArray = bodies, awakeIDs = awakeContacts
        var st: [SolverBody] = [], mo: [BodyMotion] = [], cs: [Contact] = [], js: [Joint] = []
        var ms: [MouseJoint] = [], xs: [ConstraintJoint] = [], saved: [Double] = []
        var cc: [ContactConstraint] = [], rx: [RestitutionInput] = []
        var colouring = ContactColouring()
        swap(&colouring, &contactColouring)
        defer { swap(&colouring, &contactColouring) }
        swap(&saved, &savedImpulses)
        swap(&cc, &constraints)
        swap(&rx, &restitutionInputs)
        defer { swap(&saved, &savedImpulses); swap(&cc, &constraints); swap(&rx, &restitutionInputs) }

        swap(&st, &states); swap(&mo, &motion); swap(&cs, &contacts); swap(&js, &joints); swap(&ms, &mouseJoints)
        swap(&xs, &constraintJoints)
        defer {
            swap(&st, &states); swap(&mo, &motion); swap(&cs, &contacts); swap(&js, &joints); swap(&ms, &mouseJoints)
            swap(&xs, &constraintJoints)
        }
        bodyArray.withUnsafeBufferPointer { bodyBuf in
            st.withUnsafeMutableBufferPointer { sb in
                mo.withUnsafeBufferPointer { mb in
                    cs.withUnsafeMutableBufferPointer { cb in
                        js.withUnsafeMutableBufferPointer { jb in
                          ms.withUnsafeMutableBufferPointer { mj in
                          xs.withUnsafeMutableBufferPointer { xb in
                            let s = sb.baseAddress!
                            prepareContacts(cb, awakeIDs, s, dummy: dummy, into: &cc, restitution: &rx)
                            cc.withUnsafeMutableBufferPointer { kb in colouring.build(kb, s, bodySlots: dummy + 1) }
                            prepareJoints(jb, s, bodyBuf, dummy: dummy, h: h)
                            prepareMouseJoints(mj, s, bodyBuf, h: h, invDt: stepHz)
                            prepareConstraintJoints(xb, s, bodyBuf, dummy: dummy)
                            cc.withUnsafeMutableBufferPointer { kb in
                              rx.withUnsafeBufferPointer { rb in
                                for _ in 0..<substeps {
                                    integrateVelocities(s, mb, h: h, maxW: maxW)
                                    warmStartMouseJoints(mj, s)
                                    warmStartJoints(jb, s, dummy: dummy)
                                    warmStartConstraintJoints(xb, s, dummy: dummy)
                                    warmStartContactsWide(kb, s, dummy: dummy, colouring: colouring)
                                    solveMouseJoints(mj, s)
                                    solveJoints(jb, s, dummy: dummy, jctx, useBias: true)
                                    solveConstraintJoints(xb, s, dummy: dummy, jctx, h: h, useBias: true)
                                    solveContactsWide(kb, s, dummy: dummy, cctx, useBias: true, colouring: colouring)
                                    integratePositions(s, count: dummy, h: h, maxW: maxW)
                                    solveMouseJoints(mj, s)
                                    solveJoints(jb, s, dummy: dummy, jctx, useBias: false)
                                    solveConstraintJoints(xb, s, dummy: dummy, jctx, h: h, useBias: false)
                                    solveContactsWide(kb, s, dummy: dummy, cctx, useBias: false, colouring: colouring)
                                }
                                if needsRestitution(kb, rb) {
                                    saveNormalImpulses(kb, into: &saved)
                                    for _ in 0..<Tuning.restitutionIterations {
                                        solveJoints(jb, s, dummy: dummy, jctx, useBias: false)
                                        solveConstraintJoints(xb, s, dummy: dummy, jctx, h: h, useBias: false)
                                        solveRestitution(kb, rb, s, dummy: dummy, invH: 1 / h)
                                    }
                                    restoreNormalImpulses(kb, from: saved)
                                }
                                storeImpulses(UnsafeBufferPointer(kb), cb)
                              }
                            }
                          }
                          }
                        }
                    }
                }
            }
        }
    }

    /// Where the awake body `i`, at `slot` in `awakeBodies`, finds its state in `states`. The states are
    /// indexed by body today; once the solver loads them by slot (`states[0 ..< awakeBodies.count]` plus the
    /// static dummy), this returns `slot`.
    @inline(__always) func solverStateIndex(body i: Int, slot: Int) -> Int { i }

    /// Writes the solver's results back into the awake bodies, confines them to their reference bounds,
    /// updates sleep timers, clears the per-step forces, and stamps every island that still has a moving body
    /// (picking the split candidate for `sleepIslands`). Only awake bodies carry forces (pushes and fields
    /// wake what they act on), so sleeping and static bodies are not visited.
    mutating func finalizeBodies() {
        let tol = Tuning.sleepLinearTolerance
        let maxW = Tuning.maxRotationPerSubstep * stepHz * Double(Tuning.substeps)
        sleepStamp &+= 1
        splitCandidate = -1
        splitSleepTime = 0
        bodiesFinalizedLastStep = awakeBodies.count
        for slot in 0..<awakeBodies.count {
            let i = Int(awakeBodies[slot])
            let s = states[solverStateIndex(body: i, slot: slot)]
            var b = bodies[i]
            let keepAwake = b.keepAwake
            b.force = .zero
            b.torque = 0
            b.keepAwake = false
            if b.localCentroid == .zero {
                b.center = b.center + s.dp
                if s.da != 0 {
                    b.angle += s.da
                    b.rot = Rot(angle: b.angle)
                }
            } else {
                // The solver moved the center of mass and turned about it; the item's center follows.
                let com = b.centerOfMass + s.dp
                if s.da != 0 {
                    b.angle += s.da
                    b.rot = Rot(angle: b.angle)
                }
                b.center = com - b.rot.rotate(b.localCentroid)
            }
            // The relax and restitution passes end the step without the integrator's clamps: apply them, so
            // no conflicting constraint can hand the next step an unbounded velocity.
            b.velocity = clampLength(s.v, Tuning.maxLinearSpeed)
            b.angularVelocity = clampMagnitude(s.w, maxW)
            if b.boundsMask != 0 { confine(&b) }
            let w = b.angularVelocity * b.boundingRadius
            if keepAwake || b.velocity.lengthSquared > tol * tol || w * w > tol * tol {
                b.sleepTime = 0
            } else {
                b.sleepTime += dt
            }
            bodies[i] = b
            // Any moving body keeps its island awake; a resting one in an island that may have come apart
            // makes it a split candidate (the one resting longest, ties to the higher id, as in Box2D).
            let k = Int(b.island)
            if b.sleepTime < Tuning.timeToSleep {
                islands[k].movingStamp = sleepStamp
            } else if islands[k].pendingRemovals > 0
                        && (b.sleepTime > splitSleepTime || (b.sleepTime == splitSleepTime && Int32(k) > splitCandidate)) {
                splitCandidate = Int32(k)
                splitSleepTime = b.sleepTime
            }
        }
    }

    /// Last line of defence behind the speculative contacts: a body whose center got more than half its inner
    /// radius past its reference bounds is put back and loses its outward velocity.
    private func confine(_ b: inout Body) {
        let margin = 0.5 * (b.isCircle ? b.radius : b.innerRadius)
        for slot in 0..<min(64, boundsRects.count) where b.boundsMask & (1 << UInt64(slot)) != 0 {
            let r = boundsRects[slot]
            let lo = Vec2(r.minX + margin, r.minY + margin), hi = Vec2(r.maxX - margin, r.maxY - margin)
            if lo.x <= hi.x {
                if b.center.x < lo.x { b.center.x = lo.x; b.velocity.x = max(b.velocity.x, 0) }
                if b.center.x > hi.x { b.center.x = hi.x; b.velocity.x = min(b.velocity.x, 0) }
            } else {
                b.center.x = 0.5 * (r.minX + r.maxX)
            }
            if lo.y <= hi.y {
                if b.center.y < lo.y { b.center.y = lo.y; b.velocity.y = max(b.velocity.y, 0) }
                if b.center.y > hi.y { b.center.y = hi.y; b.velocity.y = min(b.velocity.y, 0) }
            } else {
                b.center.y = 0.5 * (r.minY + r.maxY)
            }
        }
    }
}

private func integrateVelocities(_ s: UnsafeMutablePointer<SolverBody>, _ m: UnsafeBufferPointer<BodyMotion>,
                                 h: Double, maxW: Double) {
    for i in 0..<m.count where s[i].invMass > 0 {
        let mo = m[i]
        var v = (s[i].v + mo.accel * h) * mo.linearDampingFactor
        v = clampLength(v, Tuning.maxLinearSpeed)
        s[i].v = v
        if s[i].invI > 0 {
            s[i].w = clampMagnitude((s[i].w + mo.angularAccel * h) * mo.angularDampingFactor, maxW)
        }
    }
}

private func integratePositions(_ s: UnsafeMutablePointer<SolverBody>, count: Int, h: Double, maxW: Double) {
    for i in 0..<count where s[i].invMass > 0 {
        let v = clampLength(s[i].v, Tuning.maxLinearSpeed)
        s[i].v = v
        s[i].dp = s[i].dp + v * h
        let w = s[i].w
        if w != 0 {
            let wc = clampMagnitude(w, maxW)
            s[i].w = wc
            s[i].dq = s[i].dq.integrated(by: h * wc)
            s[i].da += h * wc
        }
    }
}
