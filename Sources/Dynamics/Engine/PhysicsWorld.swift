/// The rigid-body world behind `DynamicAnimator`: contiguous arrays of value types (bodies in insertion order,
/// boundary segments, persistent contacts and joints) plus reusable scratch buffers, so that a steady-state
/// step allocates nothing. It knows nothing about behaviors: the animator translates those into per-body
/// inputs (gravity, forces, collision masks), joints and segments.
struct PhysicsWorld {
    let stepHz: Double
    let dt: Double

    var bodies: [Body] = []
    var infos: [BodyRecord] = []
    var localVertices: [Vec2] = []
    var localNormals: [Vec2] = []
    var worldVertices: [Vec2] = []
    var worldNormals: [Vec2] = []

    var segments: [Segment] = []
    var segmentVertices: [Vec2] = []
    var segmentNormals: [Vec2] = []
    var boundaryNames: [String] = []
    /// Reference-bounds rectangle per collision slot, for the escape guard (`Body.boundsMask`).
    var boundsRects: [AABB] = []
    private var nextSegmentKey = 1
    /// Proxy boxes must be resized and recomputed (bodies or segments were added or removed).
    private var proxiesDirty = true
    /// Sum of log(diameter) over bodies, for the broad phase's cell size.
    private var logDiameterSum = 0.0

    var contacts: [Contact] = []
    var joints: [Joint] = []
    /// Drags (`DragBehavior`), solved before the other joints (Engine/MouseJoint.swift).
    var mouseJoints: [MouseJoint] = []
    /// Weld, slide and pin joints (Engine/ConstraintJoint.swift).
    var constraintJoints: [ConstraintJoint] = []
    /// false: bodies never sleep, so the animator never pauses while it has a movable item.
    var sleepingEnabled = true
    var events: [ContactEvent] = []
    /// false: no contact events are recorded at all (nobody listens).
    var eventsEnabled = true
    /// Events recorded in the current step, and those dropped because a step or the unread queue was full.
    var eventsThisStep = 0
    var droppedEvents = 0
    /// Pending events beyond this are dropped (oldest kept) so that an unread queue cannot grow forever.
    static let maxPendingEvents = 65_536
    /// At most this many events are recorded per step (a pile collapsing at once cannot flood a listener).
    static let maxEventsPerStep = 4_096

    // The awake set (Engine/AwakeSet.swift) and the islands (Engine/Island.swift, PhysicsWorld+Islands.swift).
    /// Indices of the awake movable bodies, ascending (at every step stage; commands may append between steps).
    var awakeBodies: [Int32] = []
    /// Per body: its index in `awakeBodies`, which is its slot in the solver's state array; -1 when static or
    /// asleep. Current at every step stage (`normalizeAwakeSet`).
    var solverSlot: [Int32] = []
    /// Bodies were appended to `awakeBodies` since it was last sorted.
    var awakeSetUnsorted = false
    /// `solverSlot` must be recomputed from `awakeBodies`.
    var solverSlotsStale = false
    /// Island storage, indexed by island id; freed ids are reused from `freeIslands`.
    var islands: [Island] = []
    var freeIslands: [Int32] = []
    /// Ids of the awake islands.
    var awakeIslands: [Int32] = []
    /// Counts sleep checks; an island stamped with the current value had a moving body.
    var sleepStamp: UInt32 = 0
    /// The island to split at this step's sleep check (-1: none): the one with pending removals whose
    /// sleepiest body has rested longest (ties: the higher id), as Box2D picks it.
    var splitCandidate: Int32 = -1
    var splitSleepTime = 0.0
    /// Sorted keys (`linkKey`) of the joints that link two movable bodies, as of the last `jointsChanged()`.
    var jointLinks: [Int64] = []
    /// Bodies finalized by the last step (= the awake set's size then): what tests check sleeping costs.
    var bodiesFinalizedLastStep = 0
    /// Proxies grown by the last step's `prepareProxies`.
    var proxiesPreparedLastStep = 0

    // Scratch reused every step.
    var previousContacts: [Contact] = []
    var boxes: [AABB] = []
    var expansion: [Double] = []
    var proxyActive: [Bool] = []
    var pairs: [ProxyPair] = []
    var matched: [Bool] = []
    var table = PairTable()
    var broadPhase = BroadPhase()
    var states: [SolverBody] = []
    var motion: [BodyMotion] = []
    /// Union-find parents over an island's bodies while it is split.
    var splitParent: [Int32] = []
    /// Island id of each component root while an island is split.
    var splitTarget: [Int32] = []
    var jointLinkScratch: [Int64] = []
    var savedImpulses: [Double] = []
    var constraints: [ContactConstraint] = []
    var restitutionInputs: [RestitutionInput] = []
    /// The step's colouring of `constraints`, kept between steps for its capacity.
    var contactColouring = ContactColouring()

    init(stepHz: Double) {
        self.stepHz = stepHz
        self.dt = 1 / stepHz
    }

    // MARK: bodies

    mutating func addBody(id: ItemID, info: BodyRecord, center: Vec2, angle: Double, velocity: Vec2,
                          angularVelocity: Double) {
        let g = info.geometry
        let start = localVertices.count
        localVertices.append(contentsOf: g.vertices)
        localNormals.append(contentsOf: g.normals)
        worldVertices.append(contentsOf: g.vertices)
        worldNormals.append(contentsOf: g.normals)
        let body = Body(id: id, center: center, angle: angle, rot: Rot(angle: angle), velocity: velocity,
                        angularVelocity: angularVelocity, invMass: 0, invInertia: 0, isStatic: false, awake: true,
                        sleepTime: 0, fixedRotation: false, isCircle: g.isCircle, radius: g.radius,
                        vertexStart: start, vertexCount: g.vertices.count, boundingRadius: g.boundingRadius,
                        innerRadius: g.innerRadius, elasticity: 0, friction: 0, linearDamping: 0, angularDamping: 0,
                        localCentroid: g.centroid)
        bodies.append(body)
        infos.append(info)
        solverSlot.append(-1)
        configure(bodies.count - 1, info.properties, isNew: true)
        logDiameterSum += logDiameter(body)
        updateCellSize()
        proxiesDirty = true
    }

    private func logDiameter(_ b: Body) -> Double { naturalLog(max(2 * b.boundingRadius, 1e-3)) }

    /// Applies item properties (mass, inertia, static/rotation flags, material) to body `i`; a body that
    /// becomes movable gets an island of its own (linked to what it touches), one that becomes static leaves
    /// its island. `isNew`: the body was just added (nothing can touch it or be joined to it yet).
    mutating func configure(_ i: Int, _ p: ItemProperties, isNew: Bool = false) {
        let mass = p.density * infos[i].geometry.mass.area / 10_000
        infos[i].properties = p
        infos[i].mass = mass
        infos[i].inertia = mass * infos[i].geometry.unitInertia
        bodies[i].isStatic = p.anchored
        bodies[i].fixedRotation = !p.allowsRotation
        bodies[i].invMass = p.anchored ? 0 : 1 / mass
        bodies[i].invInertia = p.anchored || !p.allowsRotation ? 0 : 1 / infos[i].inertia
        if p.anchored { bodies[i].velocity = .zero }
        if p.anchored || !p.allowsRotation { bodies[i].angularVelocity = 0 }
        bodies[i].elasticity = p.elasticity
        bodies[i].friction = p.friction
        bodies[i].linearDamping = p.resistance
        bodies[i].angularDamping = p.angularResistance
        updateIslandMembership(i, isNew: isNew)
    }

    /// Removes body `i`, reporting ended contacts and re-indexing contacts and joints. The caller has already
    /// removed the joints that hold the body.
    mutating func removeBody(at r: Int) {
        let r32 = Int32(r)
        if bodies[r].island >= 0 { leaveIsland(r) }
        var kept = 0
        for k in 0..<contacts.count {
            var c = contacts[k]
            if c.bodyA == r32 || c.bodyB == r32 {
                if c.touching { emit(endedEvent(c)) }
                continue
            }
            if c.bodyA > r32 { c.bodyA -= 1 }
            if c.bodyB > r32 { c.bodyB -= 1 }
            contacts[kept] = c
            kept += 1
        }
        contacts.removeLast(contacts.count - kept)
        for k in 0..<joints.count {
            if joints[k].bodyA > r32 { joints[k].bodyA -= 1 }
            if joints[k].bodyB > r32 { joints[k].bodyB -= 1 }
        }
        mouseJoints.removeAll { $0.body == r32 }
        for k in 0..<mouseJoints.count where mouseJoints[k].body > r32 { mouseJoints[k].body -= 1 }
        logDiameterSum -= logDiameter(bodies[r])
        bodies.remove(at: r)
        infos.remove(at: r)
        solverSlot.remove(at: r)
        shiftBodyIndices(after: r)
        rebuildVertexPools()
        updateCellSize()
    }

    mutating func removeAllBodies() {
        for c in contacts where c.touching { emit(endedEvent(c)) }
        contacts.removeAll()
        joints.removeAll()
        mouseJoints.removeAll()
        bodies.removeAll()
        infos.removeAll()
        removeAllIslands()
        logDiameterSum = 0
        rebuildVertexPools()
    }

    private mutating func rebuildVertexPools() {
        localVertices.removeAll(keepingCapacity: true)
        localNormals.removeAll(keepingCapacity: true)
        for i in 0..<bodies.count {
            bodies[i].vertexStart = localVertices.count
            localVertices.append(contentsOf: infos[i].geometry.vertices)
            localNormals.append(contentsOf: infos[i].geometry.normals)
        }
        worldVertices = localVertices
        worldNormals = localNormals
        proxiesDirty = true
    }

    /// Cell size of the broad phase: the geometric mean of the bodies' diameters, robust to a few giants.
    private mutating func updateCellSize() {
        guard !bodies.isEmpty else { return }
        broadPhase.cellSize = max(exponential(logDiameterSum / Double(bodies.count)), 1e-3)
            + Tuning.speculativeDistance
    }

    // MARK: geometry

    /// Recomputes the world-space vertices of body `i` and its proxy box grown by `expansion`.
    mutating func updateGeometry(_ i: Int, expansion e: Double) {
        if proxiesDirty || boxes.count != bodies.count + segments.count { ensureProxyCapacity() }
        let b = bodies[i]
        var box: AABB
        if b.isCircle {
            box = AABB(minX: b.center.x - b.radius, minY: b.center.y - b.radius,
                       maxX: b.center.x + b.radius, maxY: b.center.y + b.radius)
        } else {
            box = AABB(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for k in b.vertexStart..<(b.vertexStart + b.vertexCount) {
                let v = b.center + b.rot.rotate(localVertices[k])
                worldVertices[k] = v
                worldNormals[k] = b.rot.rotate(localNormals[k])
                box.minX = min(box.minX, v.x); box.minY = min(box.minY, v.y)
                box.maxX = max(box.maxX, v.x); box.maxY = max(box.maxY, v.y)
            }
        }
        box.minX -= e; box.minY -= e; box.maxX += e; box.maxY += e
        boxes[i] = box
        expansion[i] = e
    }

    mutating func ensureProxyCapacity() {
        let n = bodies.count + segments.count
        if proxiesDirty || boxes.count != n {
            proxiesDirty = false
            boxes = Array(repeating: AABB(minX: 0, minY: 0, maxX: 0, maxY: 0), count: n)
            expansion = Array(repeating: 0, count: n)
            proxyActive = Array(repeating: false, count: n)
            for i in 0..<bodies.count { updateGeometry(i, expansion: 0.5 * Tuning.speculativeDistance) }
            for s in 0..<segments.count { updateSegmentBox(s) }
        }
    }

    private mutating func updateSegmentBox(_ s: Int) {
        let g = segments[s], e = 0.5 * Tuning.speculativeDistance
        let p = bodies.count + s
        boxes[p] = AABB(minX: min(g.a.x, g.b.x) - e, minY: min(g.a.y, g.b.y) - e,
                        maxX: max(g.a.x, g.b.x) + e, maxY: max(g.a.y, g.b.y) + e)
        expansion[p] = e
    }

    // MARK: boundaries

    /// Replaces every boundary segment. Segments equal to an existing one keep their key (and contacts);
    /// contacts with segments that disappeared end.
    mutating func setSegments(_ specs: [(slot: Int, name: String, a: Vec2, b: Vec2)]) {
        var newSegments: [Segment] = []
        var names: [String] = []
        var newVertices: [Vec2] = []
        var newNormals: [Vec2] = []
        for spec in specs {
            var nameIndex = names.firstIndex(of: spec.name) ?? -1
            if nameIndex < 0 { names.append(spec.name); nameIndex = names.count - 1 }
            let old = segments.first { $0.slot == spec.slot && $0.a == spec.a && $0.b == spec.b &&
                boundaryNames[$0.nameIndex] == spec.name }
            let key: Int
            if let o = old { key = o.key } else { key = -nextSegmentKey; nextSegmentKey += 1 }
            let n = Vec2((spec.b - spec.a).y, -(spec.b - spec.a).x).normalized
            newSegments.append(Segment(a: spec.a, b: spec.b, nameIndex: nameIndex, slot: spec.slot, key: key,
                                       vertexStart: newVertices.count))
            newVertices.append(contentsOf: [spec.a, spec.b])
            newNormals.append(contentsOf: [n, -n])
        }
        var kept = 0
        for k in 0..<contacts.count {
            var c = contacts[k]
            if c.segment >= 0 {
                guard let s = newSegments.firstIndex(where: { $0.key == c.keyB }) else {
                    if c.touching { emit(endedEvent(c)) }
                    continue
                }
                c.segment = Int32(s)
            }
            contacts[kept] = c
            kept += 1
        }
        contacts.removeLast(contacts.count - kept)
        segments = newSegments
        boundaryNames = names
        segmentVertices = newVertices
        segmentNormals = newNormals
        proxiesDirty = true
    }

    // MARK: events

    func partner(of c: Contact) -> ContactPartner {
        c.segment >= 0 ? .boundary(boundaryNames[segments[Int(c.segment)].nameIndex]) : .item(bodies[Int(c.bodyB)].id)
    }

    func endedEvent(_ c: Contact) -> ContactEvent { .ended(bodies[Int(c.bodyA)].id, partner(of: c)) }

    mutating func emit(_ e: ContactEvent) {
        guard eventsEnabled else { return }
        if events.count < Self.maxPendingEvents && eventsThisStep < Self.maxEventsPerStep {
            events.append(e)
            eventsThisStep += 1
        } else {
            droppedEvents += 1
        }
    }
}

/// Per-step integration inputs of one body, kept apart from `SolverBody` so that the contact solver's
/// working set stays small.
struct BodyMotion {
    var accel = Vec2.zero
    var angularAccel = 0.0
    var linearDampingFactor = 1.0
    var angularDampingFactor = 1.0
}
