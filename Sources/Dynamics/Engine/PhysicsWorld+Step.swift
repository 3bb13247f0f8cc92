extension PhysicsWorld {
    /// One fixed step of `dt`: proxies, contacts (linking islands, waking what touches awake bodies), the
    /// soft-step solver with sub-steps, continuous collision of the fast bodies, then transforms, the bounds
    /// guard, sleep timers and island sleep.
    /// Every per-body stage walks the awake set only (Engine/AwakeSet.swift).
    /// The stages are `StepStage`'s, in its order; `stageObserver` (if set) hears each one begin.
    mutating func step() {
        eventsThisStep = 0
        stageObserver?(.proxies)
        normalizeAwakeSet()
        prepareProxies()
        stageObserver?(.contacts)
        updateContacts()
        stageObserver?(.awakeLists)
        normalizeAwakeSet()
        // The solver's joints: those of the bodies awake now (a contact may have woken an island).
        buildAwakeJoints()
        // The solver's contacts: those of the bodies awake now (a contact may have woken an island).
        refreshAwakeContacts()
        solve()
        stageObserver?(.continuous)
        solveContinuous()
        stageObserver?(.finalize)
        finalizeBodies()
        stageObserver?(.sleep)
        if sleepingEnabled { sleepIslands() }
        normalizeAwakeSet()
    }

    // MARK: solver

    /// The smallest block of the parallel stages: chunks of a colour, bodies of the integrators.
    private var chunksPerBlock: Int { 4 }
    private var bodiesPerBlock: Int { 64 }

    /// One solver state per awake body, in `awakeBodies` order, then the static dummy.
    private mutating func loadSolverBodies(h: Double) {
        states.removeAll(keepingCapacity: true)
        solverMass.removeAll(keepingCapacity: true)
        turned.removeAll(keepingCapacity: true)
        motion.removeAll(keepingCapacity: true)
        for i in awakeBodies {
            let b = bodies[Int(i)]
            states.append(SolverBody(v: b.velocity, w: b.angularVelocity))
            solverMass.append(SolverMass(invMass: b.invMass, invI: b.invInertia))
            turned.append(0)
            let accel = clampLength(b.gravity + b.force * b.invMass, Tuning.maxAcceleration)
            motion.append(BodyMotion(accel: SIMD2(Float(accel.x), Float(accel.y)),
                                     angularAccel: Float(clampMagnitude(b.torque * b.invInertia,
                                                                        Tuning.maxAcceleration)),
                                     linearDampingFactor: Float(1 / (1 + h * b.linearDamping)),
                                     angularDampingFactor: Float(1 / (1 + h * b.angularDamping))))
        }
        states.append(.rest)
        solverMass.append(SolverMass())
        turned.append(0)
    }

    /// The solver stages (Box2D v3's `b2SolverStage`s): prepare contacts (colour-major lanes) and joints, then
    /// per sub-step integrate velocities, warm start, solve, integrate positions, relax; then restitution and
    /// the impulses stored back. Within a stage: drags, joints, then the contacts colour by colour and the
    /// overflow (so drags give way to everything, and joints to contacts, as before the colouring).
    mutating func solve() {
        let observe = stageObserver
        observe?(.prepare)
        let substeps = Tuning.substeps
        let h = dt / Double(substeps)
        loadSolverBodies(h: h)
        let contactHertz = min(Tuning.contactHertzCap, 0.25 / h)
        let soft = Softness(hertz: contactHertz, zeta: Tuning.contactDampingRatio, h: h)
        let staticSoft = Softness(hertz: 2 * contactHertz, zeta: Tuning.contactDampingRatio, h: h)
        let jctx = JointSolverContext(
            jointSoft: Softness(hertz: 2 * contactHertz, zeta: Tuning.jointDampingRatio, h: h), invH: 1 / h)
        let dummy = awakeBodies.count
        let maxW = Float(Tuning.maxRotationPerSubstep / h)
        let invH = Float(1 / h)
        // Move the arrays into locals for the duration of the solve (no copy, no allocation) so that the
        // unsafe buffers do not overlap an access to `self`.
        let bodyArray = bodies, slotArray = solverSlot, awakeIDs = awakeContacts
        let jointIDArray = awakeJointIDs, constraintJointIDArray = awakeConstraintJointIDs
        var st: [SolverBody] = [], sm: [SolverMass] = [], tu: [Double] = [], mo: [BodyMotion] = []
        var cs: [Contact] = [], js: [Joint] = [], ms: [MouseJoint] = [], xs: [ConstraintJoint] = []
        var solver = ContactSolver()
        swap(&st, &states); swap(&sm, &solverMass); swap(&tu, &turned); swap(&mo, &motion)
        swap(&cs, &contacts); swap(&js, &joints); swap(&ms, &mouseJoints); swap(&xs, &constraintJoints)
        swap(&solver, &contactSolver)
        defer {
            swap(&st, &states); swap(&sm, &solverMass); swap(&tu, &turned); swap(&mo, &motion)
            swap(&cs, &contacts); swap(&js, &joints); swap(&ms, &mouseJoints); swap(&xs, &constraintJoints)
            swap(&solver, &contactSolver)
        }
        let colours = ContactColouring.colourCount
        // The parallel stages (docs/ENGINE.md, "Parallel step"): integration in blocks of bodies, prepare,
        // warm start, solve, relax and the impulse store in blocks of chunks, each colour's blocks after the
        // previous colour's; drags, joints, the overflow and restitution stay on this thread, in order.
        let stages = ParallelStages(workers, awakeBodies: dummy)
        bodyArray.withUnsafeBufferPointer { bodyBuf in
        slotArray.withUnsafeBufferPointer { slots in
        awakeIDs.withUnsafeBufferPointer { ids in
        jointIDArray.withUnsafeBufferPointer { jids in
        constraintJointIDArray.withUnsafeBufferPointer { xids in
        st.withUnsafeMutableBufferPointer { stb in
        sm.withUnsafeBufferPointer { smb in
        tu.withUnsafeMutableBufferPointer { tub in
        mo.withUnsafeBufferPointer { mb in
        cs.withUnsafeMutableBufferPointer { cb in
        js.withUnsafeMutableBufferPointer { jb in
        ms.withUnsafeMutableBufferPointer { mj in
        xs.withUnsafeMutableBufferPointer { xb in
            let sb = SolverBodies(state: stb.baseAddress!, mass: smb.baseAddress!, turned: tub.baseAddress!,
                                  dummy: dummy)
            let s = sb.state
            prepareJoints(jb, ids: jids, sb, bodyBuf, solverSlot: slots, h: h)
            prepareMouseJoints(mj, sb, bodyBuf, solverSlot: slots, h: h, invDt: stepHz)
            prepareConstraintJoints(xb, ids: xids, sb, bodyBuf, solverSlot: slots)
            solver.colouring.reset(slots: dummy + 1)
            solver.colourJoints(jb, ids: jids, xb, ids: xids, sb)
            solver.prepare(cb, ids: ids, sb, solverSlot: slots, soft: soft, staticSoft: staticSoft, stages: stages)
            let starts = solver.chunkStarts, jointStarts = solver.jointStarts, jointOrder = solver.jointOrder
            solver.chunks.withUnsafeMutableBufferPointer { kb in
            solver.overflow.withUnsafeMutableBufferPointer { ob in
            jointOrder.withUnsafeBufferPointer { jo in
                // Drags first (they give way to everything), then colour by colour the colour's joints and then
                // its contacts (Box2D's stage order), then the overflow's joints and contacts.
                @inline(__always) func relaxOrSolve(useBias: Bool) {
                    solveMouseJoints(mj, sb)
                    for k in 0..<colours {
                        solveColouredJoints(jo, jointStarts[k] ..< jointStarts[k + 1], jb, xb, sb, jctx, h: h,
                                            useBias: useBias)
                        let first = starts[k]
                        stages.run(starts[k + 1] - first, minPerBlock: chunksPerBlock) { r in
                            solveContacts(kb, first + r.lowerBound ..< first + r.upperBound, s, invH: invH,
                                          useBias: useBias)
                        }
                    }
                    solveColouredJoints(jo, jointStarts[colours] ..< jointStarts[colours + 1], jb, xb, sb, jctx, h: h,
                                        useBias: useBias)
                    for o in 0..<ob.count { solveContact(&ob[o], s, invH: invH, useBias: useBias) }
                    sb.resetDummy()
                }
                observe?(.substeps)
                for _ in 0..<substeps {
                    stages.run(dummy, minPerBlock: bodiesPerBlock) { r in
                        integrateVelocities(sb, mb, r, h: Float(h), maxW: maxW)
                    }
                    warmStartMouseJoints(mj, sb)
                    for k in 0..<colours {
                        warmStartColouredJoints(jo, jointStarts[k] ..< jointStarts[k + 1], jb, xb, sb)
                        let first = starts[k]
                        stages.run(starts[k + 1] - first, minPerBlock: chunksPerBlock) { r in
                            warmStartContacts(kb, first + r.lowerBound ..< first + r.upperBound, s)
                        }
                    }
                    warmStartColouredJoints(jo, jointStarts[colours] ..< jointStarts[colours + 1], jb, xb, sb)
                    for o in 0..<ob.count { warmStartContact(ob[o], s) }
                    sb.resetDummy()
                    relaxOrSolve(useBias: true)
                    stages.run(dummy, minPerBlock: bodiesPerBlock) { r in
                        integratePositions(sb, r, h: h, maxW: maxW)
                    }
                    relaxOrSolve(useBias: false)
                }
            }
            }
            }
            observe?(.restitution)
            if solver.needsRestitution() {
                solver.saveNormalImpulses()
                preBounce.removeAll(keepingCapacity: true)
                for k in 0..<dummy { preBounce.append(stb[k].velocity) }
                solver.chunks.withUnsafeMutableBufferPointer { kb in
                solver.overflow.withUnsafeMutableBufferPointer { ob in
                    for _ in 0..<Tuning.restitutionIterations {
                        solveJoints(jb, ids: jids, sb, jctx, useBias: false)
                        solveConstraintJoints(xb, ids: xids, sb, jctx, h: h, useBias: false)
                        for i in 0..<kb.count { restitutionChunk(kb.baseAddress! + i, s, invH: invH) }
                        for o in 0..<ob.count { restitutionContact(&ob[o], s, dummy: dummy, invH: invH) }
                        sb.resetDummy()
                    }
                }
                }
                solver.restoreNormalImpulses()
                limitBounceEnergy(stb.baseAddress!, count: dummy, bodies: bodyBuf, motion: mb, mass: smb)
            }
            solver.storeImpulses(cb, stages: stages)
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
        }
        }
        }
    }

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
        // The bodies are moved out of `self` for the loop and written in place through a pointer: a `Body`
        // copied out and back is two whole-record copies per body and step.
        var bodyArray: [Body] = [], pushedArray: [Bool] = []
        swap(&bodyArray, &bodies)
        swap(&pushedArray, &pushedOut)
        defer {
            swap(&bodyArray, &bodies)
            swap(&pushedArray, &pushedOut)
        }
        pushedArray.withUnsafeMutableBufferPointer { pushed in
        bodyArray.withUnsafeMutableBufferPointer { bb in
            // The islands with a body in a deep overlap: every body of theirs is capped, not only the overlapping
            // ones, because in the sub-steps the push-out speed passes on to what they touch.
            let pushing = pushedOutCount > 0
            if pushing {
                for i32 in awakeBodies where pushed[Int(i32)] {
                    pushed[Int(i32)] = false
                    islands[Int(bb[Int(i32)].island)].pushStamp = sleepStamp
                }
                pushedOutCount = 0
            }
            for slot in 0..<awakeBodies.count {
                let i = Int(awakeBodies[slot])
                let s = states[slot], da = turned[slot]
                let b = bb.baseAddress! + i
                let keepAwake = b.pointee.keepAwake
                // A body of an island that is pushing a deep overlap apart leaves the step no faster than the
                // faster of its own motion and the push-out speed (`Tuning.pushOutOverlap`): read before the
                // step's forces are cleared and its velocity is replaced.
                var speedCap = Double.infinity
                if pushing && islands[Int(b.pointee.island)].pushStamp == sleepStamp {
                    let force = b.pointee.force
                    let accel = force == .zero ? b.pointee.gravity
                        : clampLength(b.pointee.gravity + force * b.pointee.invMass, Tuning.maxAcceleration)
                    speedCap = max((b.pointee.velocity + accel * dt).length, Tuning.contactPushMaxVelocity)
                }
                b.pointee.force = .zero
                b.pointee.torque = 0
                b.pointee.keepAwake = false
                if b.pointee.localCentroid == .zero {
                    b.pointee.center = b.pointee.center + s.dp
                    if da != 0 {
                        b.pointee.angle += da
                        b.pointee.rot = Rot(angle: b.pointee.angle)
                    }
                } else {
                    // The solver moved the center of mass and turned about it; the item's center follows.
                    let com = b.pointee.centerOfMass + s.dp
                    if da != 0 {
                        b.pointee.angle += da
                        b.pointee.rot = Rot(angle: b.pointee.angle)
                    }
                    b.pointee.center = com - b.pointee.rot.rotate(b.pointee.localCentroid)
                }
                // The relax and restitution passes end the step without the integrator's clamps: apply them, so
                // no conflicting constraint can hand the next step an unbounded velocity.
                b.pointee.velocity = clampLength(s.v, min(speedCap, Tuning.maxLinearSpeed))
                b.pointee.angularVelocity = clampMagnitude(s.w, maxW)
                let mask = b.pointee.boundsMask
                if mask != 0 && mayReachOut(b.pointee.center, b.pointee.boundingRadius, mask) { confine(b) }
                let w = b.pointee.angularVelocity * b.pointee.boundingRadius
                let sleepTime: Double
                if keepAwake || b.pointee.velocity.lengthSquared > tol * tol || w * w > tol * tol {
                    sleepTime = 0
                } else {
                    sleepTime = b.pointee.sleepTime + dt
                }
                b.pointee.sleepTime = sleepTime
                // Any moving body keeps its island awake; a resting one in an island that may have come apart
                // makes it a split candidate (the one resting longest, ties to the higher id, as in Box2D).
                let k = Int(b.pointee.island)
                if sleepTime < Tuning.timeToSleep {
                    islands[k].movingStamp = sleepStamp
                } else if islands[k].pendingRemovals > 0
                            && (sleepTime > splitSleepTime || (sleepTime == splitSleepTime && Int32(k) > splitCandidate)) {
                    splitCandidate = Int32(k)
                    splitSleepTime = sleepTime
                }
            }
        }
        }
    }

    /// True when body `b`'s bounding circle reaches more than the tolerance past one of its reference bounds
    /// (only then is its shape measured).
    /// (Takes the three fields, not the body: a `Body` passed by value is copied whole, twice per body and step.)
    @inline(__always) private func mayReachOut(_ c: Vec2, _ reach: Double, _ mask: UInt64) -> Bool {
        let tol = Tuning.boundsTolerance
        for slot in 0..<min(64, boundsRects.count) where mask & (1 << UInt64(slot)) != 0 {
            let r = boundsRects[slot]
            if c.x - reach < r.minX - tol || c.x + reach > r.maxX + tol
                || c.y - reach < r.minY - tol || c.y + reach > r.maxY + tol { return true }
        }
        return false
    }

    /// Last line of defence behind contacts and continuous collision: a body whose shape reaches more than
    /// `Tuning.boundsTolerance` past its reference bounds is put back to overlap them by a linear slop (a resting
    /// contact's depth) and loses its outward velocity; one larger than its bounds is centred in them.
    private func confine(_ body: UnsafeMutablePointer<Body>) {
        let tol = Tuning.boundsTolerance, slop = Tuning.linearSlop
        var b = body.pointee
        defer { body.pointee = b }
        for slot in 0..<min(64, boundsRects.count) where b.boundsMask & (1 << UInt64(slot)) != 0 {
            let r = boundsRects[slot]
            let c = b.center, reach = b.boundingRadius
            if c.x - reach >= r.minX - tol && c.x + reach <= r.maxX + tol
                && c.y - reach >= r.minY - tol && c.y + reach <= r.maxY + tol { continue }
            // The shape's extent around its center.
            var lo = Vec2(-b.radius, -b.radius), hi = Vec2(b.radius, b.radius)
            if !b.isCircle {
                lo = Vec2(.infinity, .infinity)
                hi = Vec2(-.infinity, -.infinity)
                for k in b.vertexStart..<(b.vertexStart + b.vertexCount) {
                    let v = b.rot.rotate(localVertices[k])
                    lo = Vec2(min(lo.x, v.x), min(lo.y, v.y))
                    hi = Vec2(max(hi.x, v.x), max(hi.y, v.y))
                }
            }
            if hi.x - lo.x > r.maxX - r.minX {
                b.center.x = 0.5 * (r.minX + r.maxX) - 0.5 * (lo.x + hi.x)
            } else if c.x + lo.x < r.minX - tol {
                b.center.x = r.minX - slop - lo.x
                b.velocity.x = max(b.velocity.x, 0)
            } else if c.x + hi.x > r.maxX + tol {
                b.center.x = r.maxX + slop - hi.x
                b.velocity.x = min(b.velocity.x, 0)
            }
            if hi.y - lo.y > r.maxY - r.minY {
                b.center.y = 0.5 * (r.minY + r.maxY) - 0.5 * (lo.y + hi.y)
            } else if c.y + lo.y < r.minY - tol {
                b.center.y = r.minY - slop - lo.y
                b.velocity.y = max(b.velocity.y, 0)
            } else if c.y + hi.y > r.maxY + tol {
                b.center.y = r.maxY + slop - hi.y
                b.velocity.y = min(b.velocity.y, 0)
            }
        }
    }
}
