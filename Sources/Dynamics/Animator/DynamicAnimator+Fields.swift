/// Fields (UIFieldBehavior) in the animator: stored apart from the other behaviors, addressed by behavior
/// ids from the same counter, and applied before every step as per-body forces (docs/UIKIT.md, Fields).
extension DynamicAnimator {
    /// Adds a field; it acts from the next step on. Throws `invalidValue` for anything out of range.
    public func add(_ f: FieldBehavior) throws(DynamicsError) -> BehaviorID {
        try f.validate()
        let id = nextBehaviorID
        nextBehaviorID += 1
        fields.append((id, f))
        wake()
        return id
    }

    public func field(_ id: BehaviorID) -> FieldBehavior? {
        fields.first { $0.id == id }?.field
    }

    /// Field ids in insertion order.
    public var fieldIDs: [BehaviorID] { fields.map(\.id) }

    public func update(_ id: BehaviorID, _ f: FieldBehavior) throws(DynamicsError) {
        guard let k = fields.firstIndex(where: { $0.id == id }) else { throw .unknownBehavior(id) }
        try f.validate()
        fields[k].field = f
        wake()
    }

    @discardableResult public func removeField(_ id: BehaviorID) -> Bool {
        guard let k = fields.firstIndex(where: { $0.id == id }) else { return false }
        fields.remove(at: k)
        wake()
        return true
    }

    /// Adds every field's force to the awake bodies it acts on. Velocity fields go last: they set the
    /// acceleration that brings the body to their velocity by the end of the step, whatever else acts on it.
    ///
    /// Sleeping bodies are skipped, which changes nothing: a body a field pushes is kept awake by it, so a body
    /// only falls asleep where every field leaves it alone; asleep, it has no velocity and does not move, so
    /// the fields (which depend on position, velocity and, for noise, time) still leave it alone, and adding,
    /// changing or removing a field wakes everything. The one exception is a noise field whose value at a
    /// sleeping body was exactly zero and later is not, which no real scene meets.
    func applyFields() {
        guard !fields.isEmpty else { return }
        for pass in 0..<2 {
            for (_, f) in fields where (f.kind == .velocity) == (pass == 1) {
                switch f.items {
                case .all:
                    for k in 0..<world.awakeBodies.count { applyField(f, to: Int(world.awakeBodies[k])) }
                case .only(let ids):
                    for id in ids { if let i = indexOf[id] { applyField(f, to: i) } }
                }
            }
        }
    }

    private func applyField(_ f: FieldBehavior, to i: Int) {
        let b = world.bodies[i]
        guard b.isDynamicAwake else { return }
        let info = world.infos[i]
        let effect = FieldForce.effect(of: f, center: b.center, velocity: b.velocity, mass: info.mass,
                                       charge: info.properties.charge, time: elapsedTime)
        var accel = effect.acceleration
        if let target = effect.targetVelocity {
            accel = (target - b.velocity) * stepHz - (b.gravity + b.force * b.invMass)
        }
        guard accel != .zero, accel.isFinite else { return }
        world.bodies[i].force = clampLength(b.force + clampLength(accel, Tuning.maxAcceleration) * info.mass, 1e300)
        world.bodies[i].keepAwake = true
    }
}

extension DynamicAnimator {
    /// The id the next added behavior or field will get (so a caller can derive a seed from it).
    public var nextBehaviorIDForSeeding: BehaviorID { nextBehaviorID }
}
