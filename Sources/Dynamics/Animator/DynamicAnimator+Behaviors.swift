/// A behavior as stored by the animator, in insertion order.
enum StoredBehavior {
    case gravity(BehaviorID, GravityBehavior)
    case collision(BehaviorID, CollisionBehavior)
    case push(BehaviorID, PushBehavior)
    case attachment(BehaviorID, AttachmentBehavior)
    case snap(BehaviorID, SnapBehavior)
    case item(BehaviorID, DynamicItemBehavior)
    case drag(BehaviorID, DragBehavior)

    var id: BehaviorID {
        switch self {
        case .gravity(let id, _), .collision(let id, _), .push(let id, _), .attachment(let id, _), .snap(let id, _),
             .item(let id, _), .drag(let id, _):
            return id
        }
    }
}

extension DynamicAnimator {
    func store(_ b: (BehaviorID) -> StoredBehavior) -> BehaviorID {
        let id = nextBehaviorID
        nextBehaviorID += 1
        behaviors.append(b(id))
        behaviorIndex[id] = behaviors.count - 1
        return id
    }

    func replace(_ id: BehaviorID, _ b: StoredBehavior) { behaviors[behaviorIndex[id]!] = b }

    func stored(_ id: BehaviorID) -> StoredBehavior? { behaviorIndex[id].map { behaviors[$0] } }

    func checkItems(_ ids: [ItemID]) throws(DynamicsError) {
        for id in ids where indexOf[id] == nil { throw .unknownItem(id) }
    }

    func checkSelection(_ s: ItemSelection) throws(DynamicsError) {
        if case .only(let ids) = s { try checkItems(ids) }
    }

    // MARK: add

    /// Adds a gravity behavior. A non-finite direction is treated as no gravity (use `update` to get an error).
    public func add(_ b: GravityBehavior) -> BehaviorID {
        var g = b
        if (try? g.validate()) == nil { g.direction = .zero }
        g.items = existing(g.items)
        derivedDirty = true
        wake()
        return store { .gravity($0, g) }
    }

    /// Adds a collision behavior. Invalid insets or boundaries (non-finite, fewer than two points) are dropped
    /// (use `update` to get an error instead).
    public func add(_ b: CollisionBehavior) -> BehaviorID {
        var c = b
        c.items = existing(c.items)
        if (try? c.validate()) == nil { c = sanitized(c) }
        derivedDirty = true
        segmentsDirty = true
        wake()
        return store { .collision($0, c) }
    }

    public func add(_ b: PushBehavior) throws(DynamicsError) -> BehaviorID {
        try b.validate()
        try checkItems(b.items)
        if b.mode == .continuous && isEffective(b) { for id in b.items { touched(indexOf[id]) } }
        queueImpulses(of: b)
        return store { .push($0, b) }
    }

    public func add(_ b: AttachmentBehavior) throws(DynamicsError) -> BehaviorID {
        let a = try resolved(b)
        jointsDirty = true
        wakeAttached(a)
        return store { .attachment($0, a) }
    }

    public func add(_ b: SnapBehavior) throws(DynamicsError) -> BehaviorID {
        try b.validate()
        try checkItems([b.item])
        jointsDirty = true
        derivedDirty = true
        touched(indexOf[b.item])
        return store { .snap($0, b) }
    }

    public func add(_ b: DynamicItemBehavior) throws(DynamicsError) -> BehaviorID {
        try apply(b)
        return store { .item($0, b) }
    }

    // MARK: read

    public func gravity(_ id: BehaviorID) -> GravityBehavior? {
        if case .gravity(_, let b)? = stored(id) { return b } else { return nil }
    }

    public func collision(_ id: BehaviorID) -> CollisionBehavior? {
        if case .collision(_, let b)? = stored(id) { return b } else { return nil }
    }

    public func push(_ id: BehaviorID) -> PushBehavior? {
        if case .push(_, let b)? = stored(id) { return b } else { return nil }
    }

    public func attachment(_ id: BehaviorID) -> AttachmentBehavior? {
        if case .attachment(_, let b)? = stored(id) { return b } else { return nil }
    }

    public func snap(_ id: BehaviorID) -> SnapBehavior? {
        if case .snap(_, let b)? = stored(id) { return b } else { return nil }
    }

    public func dynamicItem(_ id: BehaviorID) -> DynamicItemBehavior? {
        if case .item(_, let b)? = stored(id) { return b } else { return nil }
    }

    /// Ids of behaviors of each kind, in insertion order.
    public var attachmentIDs: [BehaviorID] { behaviors.compactMap { if case .attachment = $0 { $0.id } else { nil } } }
    public var snapIDs: [BehaviorID] { behaviors.compactMap { if case .snap = $0 { $0.id } else { nil } } }
    public var pushIDs: [BehaviorID] { behaviors.compactMap { if case .push = $0 { $0.id } else { nil } } }
    public var gravityIDs: [BehaviorID] { behaviors.compactMap { if case .gravity = $0 { $0.id } else { nil } } }
    public var collisionIDs: [BehaviorID] { behaviors.compactMap { if case .collision = $0 { $0.id } else { nil } } }

    // MARK: update

    public func update(_ id: BehaviorID, _ b: GravityBehavior) throws(DynamicsError) {
        guard case .gravity? = stored(id) else { throw .unknownBehavior(id) }
        try b.validate()
        try checkSelection(b.items)
        replace(id, .gravity(id, b))
        derivedDirty = true
        wake()
    }

    public func update(_ id: BehaviorID, _ b: CollisionBehavior) throws(DynamicsError) {
        guard case .collision? = stored(id) else { throw .unknownBehavior(id) }
        try b.validate()
        try checkSelection(b.items)
        replace(id, .collision(id, b))
        derivedDirty = true
        segmentsDirty = true
        wake()
    }

    public func update(_ id: BehaviorID, _ b: PushBehavior) throws(DynamicsError) {
        guard case .push? = stored(id) else { throw .unknownBehavior(id) }
        try b.validate()
        try checkItems(b.items)
        replace(id, .push(id, b))
        if b.mode == .continuous && isEffective(b) { for item in b.items { touched(indexOf[item]) } }
        queueImpulses(of: b)
    }

    public func update(_ id: BehaviorID, _ b: AttachmentBehavior) throws(DynamicsError) {
        guard case .attachment? = stored(id) else { throw .unknownBehavior(id) }
        let a = try resolved(b)
        replace(id, .attachment(id, a))
        jointsDirty = true
        wakeAttached(a)
    }

    public func update(_ id: BehaviorID, _ b: SnapBehavior) throws(DynamicsError) {
        guard case .snap? = stored(id) else { throw .unknownBehavior(id) }
        try b.validate()
        try checkItems([b.item])
        replace(id, .snap(id, b))
        jointsDirty = true
        derivedDirty = true
        touched(indexOf[b.item])
    }

    public func update(_ id: BehaviorID, _ b: DynamicItemBehavior) throws(DynamicsError) {
        guard case .item? = stored(id) else { throw .unknownBehavior(id) }
        try apply(b)
        replace(id, .item(id, b))
    }

    // MARK: remove

    @discardableResult public func removeBehavior(_ id: BehaviorID) -> Bool {
        guard let i = behaviorIndex[id] else { return false }
        let b = behaviors.remove(at: i)
        behaviorIndex[id] = nil
        for k in i..<behaviors.count { behaviorIndex[behaviors[k].id] = k }
        switch b {
        case .gravity: derivedDirty = true; wake()
        case .collision: derivedDirty = true; segmentsDirty = true; wake()
        case .push(_, let p): if p.mode == .continuous && isEffective(p) { for item in p.items { touched(indexOf[item]) } }
        case .attachment(_, let a): jointsDirty = true; wakeAttached(a)
        case .snap(_, let s): jointsDirty = true; derivedDirty = true; touched(indexOf[s.item])
        case .item: setRunning(true)
        case .drag(_, let d): jointsDirty = true; touched(indexOf[d.item])
        }
        return true
    }

    // MARK: helpers

    private func existing(_ s: ItemSelection) -> ItemSelection {
        if case .only(let ids) = s { return .only(ids.filter { indexOf[$0] != nil }) }
        return s
    }

    private func sanitized(_ c: CollisionBehavior) -> CollisionBehavior {
        var out = c
        let i = c.boundaryInsets
        if ![i.top, i.left, i.bottom, i.right].allSatisfy({ $0.isFinite && abs($0) <= maxCoordinate }) {
            out.boundaryInsets = .zero
        }
        out.removeAllBoundaries()
        for b in c.boundaries {
            var probe = CollisionBehavior()
            probe.addBoundary(id: b.id, points: b.points, closed: b.closed)
            if (try? probe.validate()) != nil { out.addBoundary(id: b.id, points: b.points, closed: b.closed) }
        }
        return out
    }

    /// Validates an attachment and fills in a nil length with the current distance between its points.
    private func resolved(_ b: AttachmentBehavior) throws(DynamicsError) -> AttachmentBehavior {
        try b.validate()
        try checkItems([b.item] + (b.otherItem.map { [$0] } ?? []))
        var a = b
        if a.length == nil {
            let bodyA = world.bodies[indexOf[b.item]!]
            let pA = bodyA.center + bodyA.rot.rotate(b.offset)
            var pB = b.anchor ?? .zero
            if let other = b.otherItem {
                let bodyB = world.bodies[indexOf[other]!]
                pB = bodyB.center + bodyB.rot.rotate(b.otherOffset)
            }
            a.length = (pB - pA).length
        }
        return a
    }

    private func wakeAttached(_ a: AttachmentBehavior) {
        touched(indexOf[a.item])
        if let o = a.otherItem { touched(indexOf[o]) }
    }

    private func apply(_ b: DynamicItemBehavior) throws(DynamicsError) {
        try b.properties.validate()
        try checkItems(b.items)
        for id in b.items {
            let info = world.infos[indexOf[id]!]
            try checkMass(b.properties, width: info.width, height: info.height, geometry: info.geometry)
        }
        for id in b.items { try setProperties(id, b.properties) }
        setRunning(true)
    }

    /// Removes `id` from every behavior; pushes left without items, attachments and snaps holding it go.
    func dropFromBehaviors(_ id: ItemID) {
        var kept: [StoredBehavior] = []
        for b in behaviors {
            switch b {
            case .gravity(let bid, var g):
                g.items = g.items.removing(id)
                kept.append(.gravity(bid, g))
            case .collision(let bid, var c):
                c.items = c.items.removing(id)
                kept.append(.collision(bid, c))
            case .push(let bid, var p):
                p.items.removeAll { $0 == id }
                p.targetOffsets[id] = nil
                if !p.items.isEmpty { kept.append(.push(bid, p)) }
            case .attachment(_, let a):
                if a.item != id && a.otherItem != id { kept.append(b) }
            case .snap(_, let s):
                if s.item != id { kept.append(b) }
            case .item(let bid, var d):
                d.items.removeAll { $0 == id }
                kept.append(.item(bid, d))
            case .drag(_, let d):
                if d.item != id { kept.append(b) }
            }
        }
        behaviors = kept
        behaviorIndex.removeAll(keepingCapacity: true)
        for (k, b) in behaviors.enumerated() { behaviorIndex[b.id] = k }
    }
}
