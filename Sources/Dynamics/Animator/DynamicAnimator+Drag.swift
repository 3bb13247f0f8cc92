extension DynamicAnimator {
    /// Starts a drag; the item wakes. Throws for an unknown item or a non-finite or out-of-range point.
    public func add(_ b: DragBehavior) throws(DynamicsError) -> BehaviorID {
        try b.validate()
        try checkItems([b.item])
        jointsDirty = true
        touched(indexOf[b.item])
        return store { .drag($0, b) }
    }

    public func drag(_ id: BehaviorID) -> DragBehavior? {
        if case .drag(_, let b)? = stored(id) { return b } else { return nil }
    }

    public var dragIDs: [BehaviorID] { behaviors.compactMap { if case .drag = $0 { $0.id } else { nil } } }

    /// Moves the pointer (or changes the grab point): the item wakes; the joint keeps its warm-start impulse.
    public func update(_ id: BehaviorID, _ b: DragBehavior) throws(DynamicsError) {
        guard case .drag(_, let old)? = stored(id) else { throw .unknownBehavior(id) }
        try b.validate()
        try checkItems([b.item])
        replace(id, .drag(id, b))
        if old.item != b.item || jointsDirty {
            jointsDirty = true
        } else if let k = world.mouseJoints.firstIndex(where: { $0.behaviorID == id }) {
            world.mouseJoints[k].target = b.target
            world.mouseJoints[k].localAnchor = b.offset
        }
        touched(indexOf[b.item])
    }

    /// Rebuilds the engine's mouse joints from the drag behaviors, keeping each one's accumulated impulse.
    func rebuildMouseJoints() {
        let old = world.mouseJoints
        var joints: [MouseJoint] = []
        for b in behaviors {
            guard case .drag(let id, let d) = b, let i = indexOf[d.item] else { continue }
            var j = MouseJoint(behaviorID: id, body: Int32(i), localAnchor: d.offset, target: d.target)
            if let o = old.first(where: { $0.behaviorID == id }) {
                j.linearImpulse = o.linearImpulse
                j.lastTarget = o.lastTarget
            }
            joints.append(j)
        }
        world.mouseJoints = joints
    }
}
