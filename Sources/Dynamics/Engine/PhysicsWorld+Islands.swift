/// Persistent islands (Engine/Island.swift) with Box2D v3's deferred splitting: linking is done when a
/// contact starts touching or a joint appears (merging two islands, waking a sleeping one), losing a link only
/// counts a pending removal, and an island that has rested for `Tuning.timeToSleep` with pending removals is
/// split (one per step) before its resting pieces fall asleep whole (docs/ENGINE.md, "Sleeping").
///
/// Costs: linking is O(smaller island); waking or putting an island to sleep is O(its bodies); the per-step
/// sleep check is O(awake bodies + awake islands); a split walks its bodies' contact lists and scans the
/// joints once.
extension PhysicsWorld {
    // MARK: hooks for the contact update

    /// Contact `id` gained its first manifold point: its two movable bodies join one island, and a sleeping
    /// island touched by an awake one wakes whole. Contacts with a static body or a boundary link nothing.
    mutating func contactBeganTouching(_ id: Int32) {
        let c = contacts[Int(id)]
        if c.bodyB >= 0 { linkBodies(Int(c.bodyA), Int(c.bodyB)) }
    }

    /// Contact `id` lost its last point (or is about to be destroyed while it had points): its island may
    /// have come apart, which is found out only when the island wants to sleep.
    mutating func contactStoppedTouching(_ id: Int32) {
        let c = contacts[Int(id)]
        lostLink(Int(c.bodyA), Int(c.bodyB))
    }

    /// A link (touching contact or joint) between bodies `a` and `b` (-1: none) went away.
    mutating func lostLink(_ a: Int, _ b: Int) {
        guard a >= 0, b >= 0, a < bodies.count, b < bodies.count, bodies[a].island >= 0, bodies[b].island >= 0
        else { return }
        islands[Int(bodies[a].island)].pendingRemovals += 1
    }

    /// Puts two movable bodies into one island (waking the sleeping side if the other is awake).
    mutating func linkBodies(_ a: Int, _ b: Int) {
        guard a != b, !bodies[a].isStatic, !bodies[b].isStatic else { return }
        let ia = Int(bodies[a].island), ib = Int(bodies[b].island)
        if islands[ia].awake && !islands[ib].awake {
            wakeIsland(ib)
        } else if islands[ib].awake && !islands[ia].awake {
            wakeIsland(ia)
        }
        if ia != ib { mergeIslands(ia, ib) }
    }

    // MARK: joints

    /// The key of a link between bodies `a` and `b`, ordered so that equal links have equal keys.
    @inline(__always) private func linkKey(_ a: Int, _ b: Int) -> Int64 {
        Int64(min(a, b)) << 32 | Int64(max(a, b))
    }

    /// Call after `joints` or `constraintJoints` changed (they are rebuilt whole by the animator): every joint
    /// between two movable bodies links them, each link that disappeared counts as a pending removal, and the
    /// per-body joint lists of the awake joints are rebuilt (Engine/AwakeJoints.swift). O(bodies + joints ·
    /// log joints), only when joints change.
    mutating func jointsChanged() {
        var keys: [Int64] = []
        swap(&keys, &jointLinkScratch)
        keys.removeAll(keepingCapacity: true)
        let n = bodies.count
        for j in joints {
            let a = Int(j.bodyA), b = Int(j.bodyB)
            if a >= 0, b >= 0, a < n, b < n, a != b, !bodies[a].isStatic, !bodies[b].isStatic {
                keys.append(linkKey(a, b))
            }
        }
        for j in constraintJoints {
            let a = Int(j.bodyA), b = Int(j.bodyB)
            if a >= 0, b >= 0, a < n, b < n, a != b, !bodies[a].isStatic, !bodies[b].isStatic {
                keys.append(linkKey(a, b))
            }
        }
        keys.sort()
        // Links in the old list but not the new one (both sorted; equal keys pair off one by one).
        var p = 0, q = 0
        while p < jointLinks.count {
            if q < keys.count && keys[q] < jointLinks[p] {
                q += 1
            } else if q < keys.count && keys[q] == jointLinks[p] {
                p += 1
                q += 1
            } else {
                lostLink(Int(jointLinks[p] >> 32), Int(jointLinks[p] & 0xFFFF_FFFF))
                p += 1
            }
        }
        for key in keys { linkBodies(Int(key >> 32), Int(key & 0xFFFF_FFFF)) }
        swap(&keys, &jointLinks)
        swap(&keys, &jointLinkScratch)
        rebuildJointAdjacency()
    }

    // MARK: membership

    /// Gives a body that became movable an island of its own, linked to the movable bodies it touches and is
    /// joined to, and takes a body that became static out of its island. `isNew`: just added, so nothing
    /// touches it or is joined to it yet.
    mutating func updateIslandMembership(_ i: Int, isNew: Bool) {
        if bodies[i].isStatic {
            if bodies[i].island >= 0 {
                leaveIsland(i)
                if !isNew { jointsChanged() }
            }
            return
        }
        guard bodies[i].island < 0 else { return }
        let k = createIsland()
        bodies[i].island = Int32(k)
        bodies[i].islandIndex = 0
        islands[k].bodies.append(Int32(i))
        bodies[i].awake = true
        bodies[i].sleepTime = 0
        enterAwakeSet(i)
        guard !isNew else { return }
        var c = contactHead[i]
        while c >= 0 {
            let contact = contacts[Int(c)]
            if contact.pointCount > 0 && contact.bodyB >= 0 { linkBodies(Int(contact.bodyA), Int(contact.bodyB)) }
            c = nextContact(c, ofBody: i)
        }
        jointsChanged()
    }

    /// Takes body `i` out of its island (it is being removed or became static); what it connected may have
    /// come apart, so the island gets a pending removal. The body leaves the awake set too.
    mutating func leaveIsland(_ i: Int) {
        let k = Int(bodies[i].island), at = Int(bodies[i].islandIndex)
        let last = islands[k].bodies.count - 1
        if at != last {
            let moved = islands[k].bodies[last]
            islands[k].bodies[at] = moved
            bodies[Int(moved)].islandIndex = Int32(at)
        }
        islands[k].bodies.removeLast()
        bodies[i].island = -1
        bodies[i].islandIndex = -1
        if islands[k].bodies.isEmpty {
            destroyIsland(k)
        } else {
            islands[k].pendingRemovals += 1
        }
        if bodies[i].awake { leaveAwakeSet(i) }
    }

    /// After body `r` was removed from `bodies`: every stored body index above `r` moves down by one.
    mutating func shiftBodyIndices(after r: Int) {
        let r32 = Int32(r)
        for k in 0..<islands.count where islands[k].inUse {
            for m in 0..<islands[k].bodies.count where islands[k].bodies[m] > r32 { islands[k].bodies[m] -= 1 }
        }
        for m in 0..<awakeBodies.count where awakeBodies[m] > r32 { awakeBodies[m] -= 1 }
        solverSlotsStale = true
        // Joint links of the removed body are gone (its island already counted a removal); the rest shift,
        // which keeps them sorted.
        var kept = 0
        for m in 0..<jointLinks.count {
            var a = jointLinks[m] >> 32, b = jointLinks[m] & 0xFFFF_FFFF
            if a == Int64(r) || b == Int64(r) { continue }
            if a > Int64(r) { a -= 1 }
            if b > Int64(r) { b -= 1 }
            jointLinks[kept] = a << 32 | b
            kept += 1
        }
        jointLinks.removeLast(jointLinks.count - kept)
    }

    mutating func removeAllIslands() {
        islands.removeAll()
        freeIslands.removeAll()
        awakeIslands.removeAll()
        awakeBodies.removeAll()
        solverSlot.removeAll()
        jointLinks.removeAll()
        awakeSetUnsorted = false
        solverSlotsStale = false
        splitCandidate = -1
    }

    // MARK: island storage

    private mutating func createIsland() -> Int {
        let k: Int
        if let free = freeIslands.popLast() {
            k = Int(free)
            islands[k].inUse = true
            islands[k].pendingRemovals = 0
            islands[k].movingStamp = 0
        } else {
            k = islands.count
            islands.append(Island())
        }
        islands[k].awake = true
        islands[k].awakeIndex = Int32(awakeIslands.count)
        awakeIslands.append(Int32(k))
        return k
    }

    /// Frees an island whose bodies have all gone (its body array keeps its capacity for reuse).
    private mutating func destroyIsland(_ k: Int) {
        if islands[k].awake { removeFromAwakeIslands(k) }
        if splitCandidate == Int32(k) { splitCandidate = -1 }
        islands[k].bodies.removeAll(keepingCapacity: true)
        islands[k].inUse = false
        islands[k].awake = false
        islands[k].pendingRemovals = 0
        freeIslands.append(Int32(k))
    }

    private mutating func removeFromAwakeIslands(_ k: Int) {
        let at = Int(islands[k].awakeIndex)
        let moved = awakeIslands.removeLast()
        if Int(moved) != k {
            awakeIslands[at] = moved
            islands[Int(moved)].awakeIndex = Int32(at)
        }
        islands[k].awakeIndex = -1
    }

    /// Moves the smaller island's bodies into the larger one (both awake or both asleep).
    private mutating func mergeIslands(_ ia: Int, _ ib: Int) {
        let (big, small) = islands[ia].bodies.count >= islands[ib].bodies.count ? (ia, ib) : (ib, ia)
        for m in 0..<islands[small].bodies.count {
            let b = Int(islands[small].bodies[m])
            bodies[b].island = Int32(big)
            bodies[b].islandIndex = Int32(islands[big].bodies.count)
            islands[big].bodies.append(Int32(b))
        }
        islands[big].pendingRemovals += islands[small].pendingRemovals
        destroyIsland(small)
    }

    // MARK: sleep and wake

    /// Wakes a sleeping island whole: its bodies enter the awake set with fresh sleep timers.
    mutating func wakeIsland(_ k: Int) {
        guard !islands[k].awake else { return }
        islands[k].awake = true
        islands[k].awakeIndex = Int32(awakeIslands.count)
        awakeIslands.append(Int32(k))
        for m in 0..<islands[k].bodies.count {
            let b = Int(islands[k].bodies[m])
            bodies[b].awake = true
            bodies[b].sleepTime = 0
            enterAwakeSet(b)
        }
    }

    /// Puts an island to sleep whole: velocities are zeroed and proxies shrink back to their resting size.
    /// The bodies stay in `awakeBodies` until `compactAwakeSet()`.
    private mutating func sleepIsland(_ k: Int) {
        islands[k].awake = false
        removeFromAwakeIslands(k)
        if islands[k].bodies.count <= 1 { islands[k].pendingRemovals = 0 }
        let e = 0.5 * Tuning.speculativeDistance
        for m in 0..<islands[k].bodies.count {
            let b = Int(islands[k].bodies[m])
            bodies[b].awake = false
            bodies[b].velocity = .zero
            bodies[b].angularVelocity = 0
            updateGeometry(b, expansion: e)
        }
    }

    /// Wakes body `i`'s island (if it sleeps) and restarts its sleep timer. Static bodies have nothing to wake.
    mutating func wake(_ i: Int) {
        guard !bodies[i].isStatic else { return }
        wakeIsland(Int(bodies[i].island))
        bodies[i].sleepTime = 0
    }

    mutating func wakeAll() {
        for k in 0..<islands.count where islands[k].inUse { wakeIsland(k) }
        for i in 0..<bodies.count { bodies[i].sleepTime = 0 }
    }

    /// Puts every island to sleep at once, connected or not (a world restored at rest).
    mutating func sleepAll() {
        while let k = awakeIslands.last { sleepIsland(Int(k)) }
        compactAwakeSet()
        normalizeAwakeSet()
    }

    /// The sleep check, after `finalizeBodies` stamped every island that has a moving body and picked the
    /// split candidate: splits that island, then puts to sleep every awake island without a moving body
    /// (an island with pending removals and more than one body waits for its split).
    mutating func sleepIslands() {
        if splitCandidate >= 0 { splitIsland(Int(splitCandidate)) }
        splitCandidate = -1
        var slept = false
        var at = awakeIslands.count - 1
        // Backwards, because putting an island to sleep moves the last awake island into its place.
        while at >= 0 {
            let k = Int(awakeIslands[at])
            if islands[k].movingStamp != sleepStamp && (islands[k].pendingRemovals == 0 || islands[k].bodies.count <= 1) {
                sleepIsland(k)
                slept = true
            }
            at -= 1
        }
        if slept { compactAwakeSet() }
    }

    // MARK: splitting

    @inline(__always) private mutating func splitRoot(_ i: Int) -> Int {
        var r = i
        while Int(splitParent[r]) != r {
            let grand = splitParent[Int(splitParent[r])]
            splitParent[r] = grand
            r = Int(grand)
        }
        return r
    }

    @inline(__always) private mutating func splitUnion(_ a: Int32, _ b: Int32) {
        let ra = splitRoot(Int(a)), rb = splitRoot(Int(b))
        if ra != rb { splitParent[max(ra, rb)] = Int32(min(ra, rb)) }
    }

    /// Splits island `k` into its connected pieces (union-find over its bodies' positions in the island,
    /// through their touching contacts, walked in each body's contact list, and the joints between them). The piece of its first body keeps the id;
    /// each other piece becomes a new awake island. Each piece is stamped moving if one of its bodies is.
    mutating func splitIsland(_ k: Int) {
        let count = islands[k].bodies.count
        islands[k].pendingRemovals = 0
        guard count > 1 else { return }
        splitParent.removeAll(keepingCapacity: true)
        for m in 0..<count { splitParent.append(Int32(m)) }
        let k32 = Int32(k)
        // Touching contacts through each body's own list (each contact is seen from both its bodies).
        for m in 0..<count {
            let i = Int(islands[k].bodies[m])
            var c = contactHead[i]
            while c >= 0 {
                let contact = contacts[Int(c)]
                if contact.pointCount > 0 && contact.bodyB >= 0 {
                    let other = bodies[Int(contact.bodyA == Int32(i) ? contact.bodyB : contact.bodyA)]
                    if other.island == k32 { splitUnion(Int32(m), other.islandIndex) }
                }
                c = nextContact(c, ofBody: i)
            }
        }
        let n = bodies.count
        for j in joints where j.bodyA >= 0 && j.bodyB >= 0 && Int(j.bodyA) < n && Int(j.bodyB) < n {
            let a = bodies[Int(j.bodyA)], b = bodies[Int(j.bodyB)]
            if a.island == k32 && b.island == k32 { splitUnion(a.islandIndex, b.islandIndex) }
        }
        for j in constraintJoints where j.bodyA >= 0 && j.bodyB >= 0 && Int(j.bodyA) < n && Int(j.bodyB) < n {
            let a = bodies[Int(j.bodyA)], b = bodies[Int(j.bodyB)]
            if a.island == k32 && b.island == k32 { splitUnion(a.islandIndex, b.islandIndex) }
        }
        var pieces = 0
        for m in 0..<count where splitRoot(m) == m { pieces += 1 }
        guard pieces > 1 else { return }
        // Each root's island: the first body's piece keeps `k`, the others get new islands.
        splitTarget.removeAll(keepingCapacity: true)
        splitTarget.append(contentsOf: repeatElement(-1, count: count))
        var members: [Int32] = []
        swap(&members, &islands[k].bodies)
        islands[k].movingStamp = 0
        for m in 0..<count {
            let r = splitRoot(m)
            if splitTarget[r] < 0 { splitTarget[r] = r == splitRoot(0) ? k32 : Int32(createIsland()) }
            let target = Int(splitTarget[r])
            let b = Int(members[m])
            bodies[b].island = Int32(target)
            bodies[b].islandIndex = Int32(islands[target].bodies.count)
            islands[target].bodies.append(Int32(b))
            if bodies[b].sleepTime < Tuning.timeToSleep { islands[target].movingStamp = sleepStamp }
        }
    }
}
