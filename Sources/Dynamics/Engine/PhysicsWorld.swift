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

    /// Persistent contacts indexed by their stable id (Engine/PhysicsWorld+ContactPool.swift); freed slots
    /// (`bodyA == -1`) are reused through `freeContacts`.
    var contacts: [Contact] = []
    /// Per contact id: its links in the per-body contact lists.
    var contactEdges: [ContactEdges] = []
    var freeContacts: [Int32] = []
    /// Pair of proxy keys -> contact id.
    var pairMap = PairMap()
    /// Per body: the first contact id of its contact list, or -1.
    var contactHead: [Int32] = []
    /// Ids of the contacts with at least one awake body, in a deterministic order (awake bodies ascending,
    /// each body's list in order): the narrow phase updates them and the solver solves those with points.
    var awakeContacts: [Int32] = []
    /// How many awake bodies `awakeContacts` was built from.
    var awakeContactsBodyCount = 0
    /// The broad phase (Engine/BroadPhase.swift) and each body's and segment's proxy key.
    var broadPhase = BroadPhase()
    var bodyProxy: [Int32] = []
    var segmentProxy: [Int32] = []
    /// Per body: the filter its contacts were last checked against; `filtersDirty` asks the next step to
    /// compare (masks, groups and anchoring change only through commands).
    var bodyFilters: [BodyFilter] = []
    var filtersDirty = false
    /// Contacts whose manifold the last step updated (those with an awake body), and proxies whose pairs it
    /// looked for (those that moved): for tests and profiles.
    var narrowPhaseUpdates = 0
    /// Contacts whose manifold the last contact update recycled instead of recomputing (ContactRecycling.swift).
    var recycledManifolds = 0
    var movedProxies = 0
    var joints: [Joint] = []
    /// Drags (`DragBehavior`), solved before the other joints (Engine/MouseJoint.swift).
    var mouseJoints: [MouseJoint] = []
    /// Weld, slide and pin joints (Engine/ConstraintJoint.swift).
    var constraintJoints: [ConstraintJoint] = []
    /// false: bodies never sleep, so the animator never pauses while it has a movable item.
    var sleepingEnabled = true
    var events: [ContactEvent] = []
    /// Hears each `StepStage` begin (profiling; nil costs one branch per stage).
    var stageObserver: ((StepStage) -> Void)?
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
    /// Indices into `joints` and `constraintJoints` of the joints with an awake body, ascending
    /// (Engine/AwakeJoints.swift), and the per-body joint lists and bitmaps that build them.
    var awakeJointIDs: [Int32] = []
    var awakeConstraintJointIDs: [Int32] = []
    var jointAdjacencyStart: [Int32] = [0]
    var jointAdjacency: [Int32] = []
    var jointAdjacencyShape = JointCounts()
    var jointMarks: [UInt64] = []
    var constraintJointMarks: [UInt64] = []
    /// Bodies finalized by the last step (= the awake set's size then): what tests check sleeping costs.
    var bodiesFinalizedLastStep = 0
    /// Proxies grown by the last step's `prepareProxies`.
    var proxiesPreparedLastStep = 0

    /// Per body: its tight box grown by `expansion` (half the speculative distance), the box its proxy's fat
    /// box must contain.
    var boxes: [AABB] = []
    var expansion: [Double] = []
    /// Per body: its predicted motion this step, noted by `prepareProxies` for awake bodies (stale for the
    /// others, which the passing test takes as not moving).
    var stepMotion: [StepMotion] = []
    /// Per body: a contact of it overlapped by more than `Tuning.pushOutOverlap` at the start of this step (set by
    /// the contact update for awake bodies, read and cleared by `finalizeBodies`; all false between steps).
    var pushedOut: [Bool] = []
    /// How many bodies the contact update flagged in `pushedOut` this step.
    var pushedOutCount = 0
    /// The solver velocities before the restitution passes, and per island the energy sums that keep a bounce
    /// from adding energy (Engine/BounceEnergy.swift). Scratch.
    var preBounce: [SIMD4<Float>] = []
    var bounceEnergy: [BounceEnergy] = []
    // Scratch reused every step.
    /// The continuous stage's candidates, tree stack and bullets (solver slots) of the step.
    var ccdCandidates: [Int32] = []
    var ccdStack: [Int32] = []
    /// The tree nodes a continuous query met, filtered after the query (a closure in a mutating method that
    /// reads the world copies all of it: on every node, that was two thirds of a 3 000-item gas' step).
    var ccdNodes: [Int32] = []
    var bulletSlots: [Int32] = []
    /// Slots the continuous stage stopped this step, and per slot the fraction of its motion it kept.
    var stoppedSlots: [Int32] = []
    var stopFraction: [Double] = []
    /// The largest reach (bounding radius + centroid offset) any body ever added has: the continuous stage skips
    /// a body whose turn cannot matter without reading it. Never shrinks (conservative after a removal).
    var maxBodyReach = 0.0
    /// The worker threads the step's parallel stages use (nil: one thread; docs/ENGINE.md, "Parallel step").
    var workers: StepWorkers?
    /// Per awake slot, how far its proxy's fat box reaches ahead this step (scratch of `prepareProxies`).
    var lookAhead: [Vec2] = []
    /// The narrow phase's changes, one list per block of the parallel step (scratch).
    var blockChanges: [[ContactChange]] = []
    /// Per slot: a bullet this step.
    var isBullet: [Bool] = []
    /// The longest motion of a bullet this step when there are two or more (0 otherwise): how far the bullet
    /// sweeps look beyond their own swept boxes for another bullet.
    var bulletReach = 0.0
    /// Bodies the last step's continuous stage stopped at a time of impact (for tests and profiles).
    var continuousStopsLastStep = 0
    var pairs: [ProxyPair] = []
    var contactChanges: [ContactChange] = []
    /// Union-find parents over an island's bodies while it is split.
    var splitParent: [Int32] = []
    /// Island id of each component root while an island is split.
    var splitTarget: [Int32] = []
    var jointLinkScratch: [Int64] = []
    // The solver's per-step arrays, by slot (`states[awakeBodies.count]` is the static dummy,
    // Engine/SolverBody.swift), kept between steps for their capacity.
    var states: [SolverBody] = []
    var solverMass: [SolverMass] = []
    var turned: [Double] = []
    var motion: [BodyMotion] = []
    var contactSolver = ContactSolver()

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
        maxBodyReach = max(maxBodyReach, g.boundingRadius + g.centroid.length)
        infos.append(info)
        solverSlot.append(-1)
        contactHead.append(-1)
        bodyProxy.append(-1)
        boxes.append(AABB(minX: 0, minY: 0, maxX: 0, maxY: 0))
        expansion.append(0)
        stepMotion.append(StepMotion())
        pushedOut.append(false)
        let i = bodies.count - 1
        configure(i, info.properties, isNew: true)
        bodyFilters.append(BodyFilter(bodies[i]))
        updateGeometry(i, expansion: 0.5 * Tuning.speculativeDistance)
        bodyProxy[i] = broadPhase.createProxy(boxes[i], owner: Int32(i), isStatic: bodies[i].isStatic)
    }

    /// Applies item properties (mass, inertia, static/rotation flags, material) to body `i`; a body that
    /// becomes movable gets an island of its own (linked to what it touches), one that becomes static leaves
    /// its island. `isNew`: the body was just added (nothing can touch it or be joined to it yet).
    mutating func configure(_ i: Int, _ p: ItemProperties, isNew: Bool = false) {
        let mass = p.density * infos[i].geometry.mass.area / 10_000
        infos[i].properties = p
        infos[i].mass = mass
        infos[i].inertia = mass * infos[i].geometry.unitInertia
        if bodies[i].isStatic != p.anchored { filtersDirty = true }
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
    /// A command, not a step: it fixes up every index once (contacts, proxies' owners, per-body arrays).
    mutating func removeBody(at r: Int) {
        let r32 = Int32(r)
        while contactHead[r] >= 0 { destroyContact(contactHead[r]) }
        if bodies[r].island >= 0 { leaveIsland(r) }
        broadPhase.destroyProxy(bodyProxy[r])
        for k in 0..<contacts.count where contacts[k].bodyA >= 0 {
            if contacts[k].bodyA > r32 { contacts[k].bodyA -= 1; contactEdges[k].bodyA -= 1 }
            if contacts[k].bodyB > r32 { contacts[k].bodyB -= 1; contactEdges[k].bodyB -= 1 }
        }
        broadPhase.remapOwners { $0 > r32 ? $0 - 1 : $0 }
        contactHead.remove(at: r)
        bodyProxy.remove(at: r)
        bodyFilters.remove(at: r)
        boxes.remove(at: r)
        expansion.remove(at: r)
        stepMotion.remove(at: r)
        pushedOut.remove(at: r)
        for k in 0..<joints.count {
            if joints[k].bodyA > r32 { joints[k].bodyA -= 1 }
            if joints[k].bodyB > r32 { joints[k].bodyB -= 1 }
        }
        mouseJoints.removeAll { $0.body == r32 }
        for k in 0..<mouseJoints.count where mouseJoints[k].body > r32 { mouseJoints[k].body -= 1 }
        bodies.remove(at: r)
        infos.remove(at: r)
        solverSlot.remove(at: r)
        shiftBodyIndices(after: r)
        rebuildVertexPools()
    }

    mutating func removeAllBodies() {
        for k in 0..<contacts.count where contacts[k].bodyA >= 0 { destroyContact(Int32(k)) }
        for key in bodyProxy { broadPhase.destroyProxy(key) }
        contacts.removeAll()
        contactEdges.removeAll()
        freeContacts.removeAll()
        awakeContacts.removeAll()
        pairMap.removeAll()
        joints.removeAll()
        mouseJoints.removeAll()
        bodies.removeAll()
        infos.removeAll()
        contactHead.removeAll()
        bodyProxy.removeAll()
        bodyFilters.removeAll()
        boxes.removeAll()
        expansion.removeAll()
        stepMotion.removeAll()
        pushedOut.removeAll()
        removeAllIslands()
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
        // The vertex pools moved: world vertices again (proxies keep their fat boxes, nothing moved).
        for i in 0..<bodies.count { updateGeometry(i, expansion: expansion[i]) }
    }

    // MARK: geometry

    /// Recomputes the world-space vertices of body `i` and its box grown by `expansion` on every side, and moves
    /// its proxy (reinserted and buffered for pair finding only when the box left the fat box). `lookAhead` is
    /// how far the body is predicted to move this step: a reinserted fat box reaches ahead along it.
    mutating func updateGeometry(_ i: Int, expansion e: Double, lookAhead: Vec2 = .zero) {
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
        box.minX -= e; box.maxX += e
        box.minY -= e; box.maxY += e
        boxes[i] = box
        expansion[i] = e
        if bodyProxy[i] >= 0 { broadPhase.moveProxy(bodyProxy[i], box, displacement: lookAhead) }
    }

    /// A boundary segment's tight box: the segment grown by the speculative margin it collides with.
    func segmentBox(_ g: Segment) -> AABB {
        let e = 0.5 * Tuning.speculativeDistance
        return AABB(minX: min(g.a.x, g.b.x) - e, minY: min(g.a.y, g.b.y) - e,
                    maxX: max(g.a.x, g.b.x) + e, maxY: max(g.a.y, g.b.y) + e)
    }

    // MARK: boundaries

    /// Replaces every boundary segment. Segments equal to an existing one keep their key, proxy and contacts;
    /// contacts with segments that disappeared end, and new segments get proxies (found by the next step).
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
        // Old segment index -> new index, or -1 when it disappeared.
        var newIndex = [Int](repeating: -1, count: segments.count)
        for (s, g) in segments.enumerated() { newIndex[s] = newSegments.firstIndex { $0.key == g.key } ?? -1 }
        for k in 0..<contacts.count where contacts[k].bodyA >= 0 && contacts[k].segment >= 0 {
            let s = newIndex[Int(contacts[k].segment)]
            if s < 0 { destroyContact(Int32(k)) } else { contacts[k].segment = Int32(s) }
        }
        var newProxies = [Int32](repeating: -1, count: newSegments.count)
        for (s, key) in segmentProxy.enumerated() {
            if newIndex[s] < 0 {
                broadPhase.destroyProxy(key)
            } else {
                newProxies[newIndex[s]] = key
                broadPhase.setOwner(key, -1 - Int32(newIndex[s]))
            }
        }
        for s in 0..<newSegments.count where newProxies[s] < 0 {
            newProxies[s] = broadPhase.createProxy(segmentBox(newSegments[s]), owner: -1 - Int32(s), isStatic: true)
        }
        segmentProxy = newProxies
        segments = newSegments
        boundaryNames = names
        segmentVertices = newVertices
        segmentNormals = newNormals
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
