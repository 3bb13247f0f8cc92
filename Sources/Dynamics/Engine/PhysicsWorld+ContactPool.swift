/// What decides whether a body's pairs may collide; a change (through a command) is checked by the next step.
struct BodyFilter: Equatable {
    var itemMask: UInt64
    var boundaryMask: UInt64
    var group: Int32
    var isStatic: Bool

    init(_ b: Body) {
        itemMask = b.itemMask
        boundaryMask = b.boundaryMask
        group = b.group
        isStatic = b.isStatic
    }
}

/// The persistent contact pool (after Box2D v3's contact array with a free list, its pair set and its
/// per-body contact edges): contacts are created by broad-phase pair events and destroyed when their fat boxes
/// separate, a body is removed, a segment disappears or a filter change forbids the pair. A contact keeps its
/// id all its life; every per-body question (waking neighbours, removal) walks the body's own list.
extension PhysicsWorld {
    // MARK: filtering

    /// Whether two proxies' owners (body index, or `-1 - segment`) may collide; `p` is a body.
    @inline(__always) func collidable(body p: Int, owner q: Int32) -> Bool {
        let a = bodies[p]
        if q >= 0 {
            let b = bodies[Int(q)]
            return Int(q) != p && !(a.isStatic && b.isStatic) && a.itemMask & b.itemMask != 0
                && (a.group == 0 || a.group != b.group)
        }
        return !a.isStatic && a.boundaryMask & (1 << UInt64(segments[Int(-1 - q)].slot)) != 0
    }

    func collidable(_ c: Contact) -> Bool {
        collidable(body: Int(c.bodyA), owner: c.bodyB >= 0 ? c.bodyB : -1 - c.segment)
    }

    /// Applies filter changes made since the last step (collision masks, groups, anchoring): a body whose filter
    /// changed loses the contacts it may no longer have and looks for pairs again; a body that became anchored
    /// (or stopped being anchored) moves to the other tree, keeping its contacts. O(bodies) on a change only.
    mutating func refreshFilters() {
        filtersDirty = false
        for i in 0..<bodies.count {
            let f = BodyFilter(bodies[i])
            guard f != bodyFilters[i] else { continue }
            let treeChanged = f.isStatic != bodyFilters[i].isStatic
            bodyFilters[i] = f
            var c = contactHead[i]
            while c >= 0 {
                let next = nextContact(c, ofBody: i)
                if !collidable(contacts[Int(c)]) { destroyContact(c) }
                c = next
            }
            if treeChanged {
                let old = bodyProxy[i]
                let key = broadPhase.createProxy(boxes[i], owner: Int32(i), isStatic: f.isStatic)
                c = contactHead[i]
                while c >= 0 {
                    let k = Int(c)
                    pairMap.remove(PairMap.key(contacts[k].proxyA, contacts[k].proxyB))
                    if contacts[k].proxyA == old { contacts[k].proxyA = key } else { contacts[k].proxyB = key }
                    pairMap.insert(PairMap.key(contacts[k].proxyA, contacts[k].proxyB), c)
                    c = nextContact(c, ofBody: i)
                }
                broadPhase.destroyProxy(old)
                bodyProxy[i] = key
            } else {
                broadPhase.bufferMove(bodyProxy[i])
            }
        }
    }

    // MARK: pair events

    /// Finds the pairs of the proxies that moved since the last step and creates a contact (with no manifold
    /// yet) for each new pair that may collide.
    mutating func createContactsForNewPairs() {
        if filtersDirty { refreshFilters() }
        var found: [ProxyPair] = []
        swap(&found, &pairs)
        movedProxies = broadPhase.moveBuffer.count
        broadPhase.findPairs(into: &found)
        for pair in found {
            var ka = pair.a, kb = pair.b
            var oa = broadPhase.owner(ka), ob = broadPhase.owner(kb)
            // A body first; of two bodies, the smaller index (events name the smaller item id first).
            if oa < 0 || (ob >= 0 && ob < oa) {
                swap(&ka, &kb)
                swap(&oa, &ob)
            }
            guard oa >= 0, collidable(body: Int(oa), owner: ob), pairMap.find(PairMap.key(ka, kb)) < 0 else {
                continue
            }
            createContact(bodyA: oa, owner: ob, proxyA: ka, proxyB: kb)
        }
        swap(&found, &pairs)
    }

    // MARK: pool

    private mutating func createContact(bodyA: Int32, owner: Int32, proxyA: Int32, proxyB: Int32) {
        let c = Contact(bodyA: bodyA, bodyB: owner >= 0 ? owner : -1, segment: owner >= 0 ? -1 : -1 - owner,
                        proxyA: proxyA, proxyB: proxyB)
        let edges = ContactEdges(bodyA: c.bodyA, bodyB: c.bodyB)
        let id: Int32
        if let reused = freeContacts.popLast() {
            id = reused
            contacts[Int(id)] = c
            contactEdges[Int(id)] = edges
        } else {
            id = Int32(contacts.count)
            contacts.append(c)
            contactEdges.append(edges)
        }
        let a = Int(bodyA)
        contactEdges[Int(id)].nextA = contactHead[a]
        if contactHead[a] >= 0 { setPrev(of: contactHead[a], body: a, to: id) }
        contactHead[a] = id
        if owner >= 0 {
            let b = Int(owner)
            contactEdges[Int(id)].nextB = contactHead[b]
            if contactHead[b] >= 0 { setPrev(of: contactHead[b], body: b, to: id) }
            contactHead[b] = id
        }
        pairMap.insert(PairMap.key(proxyA, proxyB), id)
    }

    /// Ends a contact: an ended event if it was touching, the island hook if it had points, then the slot is
    /// freed (unlinked from its bodies' lists and the pair map) for reuse.
    mutating func destroyContact(_ id: Int32) {
        let k = Int(id)
        let c = contacts[k]
        if c.touching { emit(endedEvent(c)) }
        if c.pointCount > 0 { contactStoppedTouching(id) }
        unlink(id, body: Int(c.bodyA))
        if c.bodyB >= 0 { unlink(id, body: Int(c.bodyB)) }
        pairMap.remove(PairMap.key(c.proxyA, c.proxyB))
        contacts[k] = Contact(bodyA: -1, bodyB: -1, segment: -1, proxyA: -1, proxyB: -1)
        contactEdges[k] = ContactEdges()
        freeContacts.append(id)
    }

    /// The contact after `id` in body `i`'s list, or -1.
    @inline(__always) func nextContact(_ id: Int32, ofBody i: Int) -> Int32 {
        let e = contactEdges[Int(id)]
        return e.bodyA == Int32(i) ? e.nextA : e.nextB
    }

    /// Ids of body `i`'s contacts (for commands such as waking its neighbours; the step walks the list).
    func contactIDs(ofBody i: Int) -> [Int32] {
        var ids: [Int32] = []
        var c = contactHead[i]
        while c >= 0 {
            ids.append(c)
            c = nextContact(c, ofBody: i)
        }
        return ids
    }

    /// Live contacts (not free slots).
    var contactCount: Int { contacts.count - freeContacts.count }

    private mutating func setPrev(of id: Int32, body i: Int, to prev: Int32) {
        if contactEdges[Int(id)].bodyA == Int32(i) {
            contactEdges[Int(id)].prevA = prev
        } else {
            contactEdges[Int(id)].prevB = prev
        }
    }

    private mutating func setNext(of id: Int32, body i: Int, to next: Int32) {
        if contactEdges[Int(id)].bodyA == Int32(i) {
            contactEdges[Int(id)].nextA = next
        } else {
            contactEdges[Int(id)].nextB = next
        }
    }

    private mutating func unlink(_ id: Int32, body i: Int) {
        let e = contactEdges[Int(id)]
        let isA = e.bodyA == Int32(i)
        let prev = isA ? e.prevA : e.prevB, next = isA ? e.nextA : e.nextB
        if prev >= 0 { setNext(of: prev, body: i, to: next) } else { contactHead[i] = next }
        if next >= 0 { setPrev(of: next, body: i, to: prev) }
    }
}
