extension DynamicAnimator {
    /// Adds an item and returns its new id. Throws `invalidValue` for non-finite numbers, sizes <= 0,
    /// coordinates beyond ±1e9 pt, properties out of range or a non-convex/degenerate polygon. Huge velocities
    /// are legal and clamped to the engine's maximum speed.
    public func addItem(shape: ItemShape = .rect, width: Double, height: Double, center: Vec2, angle: Double = 0,
                        velocity: Vec2 = .zero, angularVelocity: Double = 0,
                        properties: ItemProperties = .init()) throws(DynamicsError) -> ItemID {
        guard width.isFinite, height.isFinite, width > 0, height > 0, width <= maxCoordinate, height <= maxCoordinate
        else { throw .invalidValue("width and height must be finite and > 0") }
        try checkCoordinate(center, "center")
        try checkFinite(angle, "angle")
        guard velocity.isFinite else { throw .invalidValue("velocity must be finite") }
        try checkFinite(angularVelocity, "angular velocity")
        try properties.validate()
        let geometry = try ShapeGeometry.make(shape, width: width, height: height)
        try checkMass(properties, width: width, height: height, geometry: geometry)
        let id = nextItemID
        nextItemID += 1
        let info = BodyRecord(shape: shape, width: width, height: height, properties: properties, mass: 0, inertia: 0,
                            geometry: geometry)
        let maxW = Tuning.maxRotationPerSubstep * stepHz * Double(Tuning.substeps)
        world.addBody(id: id, info: info, center: center, angle: angle,
                      velocity: clampLength(velocity, Tuning.maxLinearSpeed),
                      angularVelocity: clampMagnitude(angularVelocity, maxW))
        indexOf[id] = world.bodies.count - 1
        derivedDirty = true
        touched(world.bodies.count - 1)
        return id
    }

    func checkMass(_ p: ItemProperties, width: Double, height: Double, geometry: ShapeGeometry) throws(DynamicsError) {
        let mass = p.density * geometry.mass.area / 10_000
        let inertia = mass * geometry.unitInertia
        guard mass.isFinite, mass > 0, inertia.isFinite, inertia > 0, (1 / mass).isFinite, (1 / inertia).isFinite
        else { throw .invalidValue("density × size gives a mass outside the representable range") }
    }

    /// Removes an item, every push/attachment/snap that holds it, and its id from every selection.
    @discardableResult public func removeItem(_ id: ItemID) -> Bool {
        guard let i = indexOf[id] else { return false }
        wakeNeighbours(of: i)
        dropFromBehaviors(id)
        world.removeBody(at: i)
        indexOf[id] = nil
        for k in i..<world.bodies.count { indexOf[world.bodies[k].id] = k }
        dropJointAttachments(holding: id)
        derivedDirty = true
        jointsDirty = true
        rebuildDerivedIfNeeded()
        setRunning(true)
        return true
    }

    /// Removes every item and behavior. Id counters keep going; pending contact events are discarded.
    public func removeAll() {
        world.removeAllBodies()
        world.events.removeAll()
        indexOf.removeAll()
        behaviors.removeAll()
        behaviorIndex.removeAll()
        fields.removeAll()
        jointAttachments.removeAll()
        groups.removeAll()
        world.constraintJoints.removeAll()
        derivedDirty = true
        segmentsDirty = true
        jointsDirty = true
        rebuildDerivedIfNeeded()
        setRunning(true)
    }

    public var itemCount: Int { world.bodies.count }

    /// Item ids in insertion order.
    public var itemIDs: [ItemID] { world.bodies.map(\.id) }

    public func item(_ id: ItemID) -> ItemState? {
        guard let i = indexOf[id] else { return nil }
        let b = world.bodies[i], info = world.infos[i]
        return ItemState(id: id, shape: info.shape, width: info.width, height: info.height, center: b.center,
                         angle: b.angle, velocity: b.velocity, angularVelocity: b.angularVelocity,
                         properties: info.properties, mass: info.mass)
    }

    /// Calls `body` for every item in insertion order without allocating.
    public func forEachItem(_ body: (ItemID, _ center: Vec2, _ angle: Double, _ velocity: Vec2,
                                     _ angularVelocity: Double) -> Void) {
        for b in world.bodies { body(b.id, b.center, b.angle, b.velocity, b.angularVelocity) }
    }

    public func setProperties(_ id: ItemID, _ p: ItemProperties) throws(DynamicsError) {
        let i = try index(id)
        try p.validate()
        // Nothing changes (a colour-only `set` on the wire): nothing wakes.
        if p == world.infos[i].properties { return }
        let info = world.infos[i]
        try checkMass(p, width: info.width, height: info.height, geometry: info.geometry)
        world.configure(i, p)
        world.wake(i)
        wakeNeighbours(of: i)
    }

    /// Moves an item (teleport); its velocity is kept.
    public func setTransform(_ id: ItemID, center: Vec2, angle: Double) throws(DynamicsError) {
        let i = try index(id)
        try checkCoordinate(center, "center")
        try checkFinite(angle, "angle")
        wakeNeighbours(of: i)
        world.bodies[i].center = center
        world.bodies[i].angle = angle
        world.bodies[i].rot = Rot(angle: angle)
        world.updateGeometry(i, expansion: 0.5 * Tuning.speculativeDistance)
        // Whatever the item now overlaps must be awake to notice it.
        let box = world.boxes[i]
        for j in 0..<world.bodies.count where j != i && !world.bodies[j].isStatic && world.boxes[j].overlaps(box) {
            world.wake(j)
        }
    }

    public func addLinearVelocity(_ v: Vec2, to id: ItemID) throws(DynamicsError) {
        let i = try index(id)
        guard v.isFinite else { throw .invalidValue("velocity must be finite") }
        guard !world.bodies[i].isStatic else { return }
        world.bodies[i].velocity = clampLength(world.bodies[i].velocity + clampLength(v, Tuning.maxLinearSpeed),
                                               Tuning.maxLinearSpeed)
        touched(i)
    }

    public func addAngularVelocity(_ w: Double, to id: ItemID) throws(DynamicsError) {
        let i = try index(id)
        try checkFinite(w, "angular velocity")
        guard world.bodies[i].invInertia > 0 else { return }
        let maxW = Tuning.maxRotationPerSubstep * stepHz * Double(Tuning.substeps)
        world.bodies[i].angularVelocity = clampMagnitude(world.bodies[i].angularVelocity + clampMagnitude(w, maxW), maxW)
        touched(i)
    }

    /// The topmost (last added) item whose shape contains `point`.
    public func item(at point: Vec2) -> ItemID? {
        for i in stride(from: world.bodies.count - 1, through: 0, by: -1) {
            let b = world.bodies[i]
            let local = b.rot.inverseRotate(point - b.center)
            if world.infos[i].geometry.contains(local: local) { return b.id }
        }
        return nil
    }

    /// The item whose center is nearest to `point` (the first added on ties).
    public func nearestItem(to point: Vec2) -> ItemID? {
        var best: ItemID?
        var bestD = Double.infinity
        for b in world.bodies {
            let d = (b.center - point).lengthSquared
            if d < bestD { bestD = d; best = b.id }
        }
        return best
    }
}
