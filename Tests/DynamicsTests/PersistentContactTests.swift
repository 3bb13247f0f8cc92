import Testing
@testable import Dynamics

/// docs/ENGINE.md, "Broad phase" and "Persistent contacts": contacts are created and destroyed by the broad
/// phase's pair events, keep their ids while they live, and the step touches only what is awake or moved.

private struct LCG {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}

/// A pair as (body index, owner): the owner is a body index or `-1 - segment`.
private func pairKey(_ body: Int32, _ owner: Int32) -> Int { Int(body) << 32 | Int(UInt32(bitPattern: owner)) }

/// The pairs the world has contacts for, after checking that every contact is in both of its bodies' lists
/// (and only there) and in the pair map.
private func contactPairs(_ w: PhysicsWorld) -> Set<Int> {
    var pairs = Set<Int>()
    var listEntries = 0
    for k in 0..<w.contacts.count where w.contacts[k].bodyA >= 0 {
        let c = w.contacts[k]
        #expect(w.pairMap.find(PairMap.key(c.proxyA, c.proxyB)) == Int32(k))
        #expect(w.contactEdges[k].bodyA == c.bodyA && w.contactEdges[k].bodyB == c.bodyB)
        #expect(w.contactIDs(ofBody: Int(c.bodyA)).contains(Int32(k)))
        if c.bodyB >= 0 { #expect(w.contactIDs(ofBody: Int(c.bodyB)).contains(Int32(k))) }
        listEntries += c.bodyB >= 0 ? 2 : 1
        pairs.insert(pairKey(c.bodyA, c.bodyB >= 0 ? c.bodyB : -1 - c.segment))
    }
    var walked = 0
    for i in 0..<w.bodies.count {
        for id in w.contactIDs(ofBody: i) {
            let c = w.contacts[Int(id)]
            #expect(c.bodyA == Int32(i) || c.bodyB == Int32(i))
            walked += 1
        }
    }
    #expect(walked == listEntries)
    #expect(w.pairMap.count == w.contactCount)
    return pairs
}

/// Brute force: every pair that may collide and whose proxies' fat boxes overlap.
private func overlappingPairs(_ w: PhysicsWorld) -> Set<Int> {
    var pairs = Set<Int>()
    for i in 0..<w.bodies.count {
        let box = w.broadPhase.fatBox(w.bodyProxy[i])
        for j in (i + 1)..<w.bodies.count
        where w.collidable(body: i, owner: Int32(j)) && box.overlaps(w.broadPhase.fatBox(w.bodyProxy[j])) {
            pairs.insert(pairKey(Int32(i), Int32(j)))
        }
        for s in 0..<w.segments.count
        where w.collidable(body: i, owner: -1 - Int32(s)) && box.overlaps(w.broadPhase.fatBox(w.segmentProxy[s])) {
            pairs.insert(pairKey(Int32(i), -1 - Int32(s)))
        }
    }
    return pairs
}

/// The solver's list: live contacts only, each once, and every contact with an awake body (bodies only fall
/// asleep after the solve, so after a step those are still a subset of what the solver saw).
private func checkAwakeContacts(_ w: PhysicsWorld) {
    let listed = Set(w.awakeContacts)
    #expect(listed.count == w.awakeContacts.count)
    #expect(w.awakeContacts.allSatisfy { w.contacts[Int($0)].bodyA >= 0 })
    for k in 0..<w.contacts.count where w.contacts[k].bodyA >= 0 {
        let c = w.contacts[k]
        let awake = w.bodies[Int(c.bodyA)].isDynamicAwake || (c.bodyB >= 0 && w.bodies[Int(c.bodyB)].isDynamicAwake)
        if awake { #expect(listed.contains(Int32(k))) }
    }
}

@Test(.timeLimit(.minutes(3))) func contactsMatchBruteForceOverlapsInARandomMovingWorld() throws {
    var rng = LCG(state: 2026)
    let a = makeWorld()
    var damped = ItemProperties()
    damped.resistance = 3
    damped.angularResistance = 3
    func addRandomItem() throws {
        let w = 10 + rng.next() * 40, h = 10 + rng.next() * 40
        _ = try a.addItem(width: w, height: h,
                          center: Vec2(40 + rng.next() * 720, 40 + rng.next() * 400), angle: rng.next() * 6,
                          velocity: Vec2(rng.next() * 400 - 200, rng.next() * 400 - 200), properties: damped)
    }
    for _ in 0..<60 { try addRandomItem() }
    var sawSleepers = false, sawRemoval = false
    var anchored = Set<ItemID>(), anchorChanges = 0, groupChanges = 0
    var group: BehaviorID?
    // Removals, additions and teleports, then a quiet spell in which the pile falls asleep, then more changes
    // that wake parts of it.
    for step in 1...1200 {
        a.step()
        #expect(contactPairs(a.world) == overlappingPairs(a.world), "step \(step)")
        checkAwakeContacts(a.world)
        sawSleepers = sawSleepers || a.world.bodies.contains { !$0.awake }
        let quiet = step > 300 && step < 900
        if step % 45 == 0 && !quiet {
            let ids = a.itemIDs
            a.removeItem(ids[Int(rng.next() * Double(ids.count))])
            sawRemoval = true
            try addRandomItem()
        }
        if step % 70 == 0 && !quiet {
            let ids = a.itemIDs
            try a.setTransform(ids[Int(rng.next() * Double(ids.count))],
                               center: Vec2(40 + rng.next() * 720, 40 + rng.next() * 400), angle: rng.next())
        }
        // Filter changes: anchoring and freeing items, grouping two items and splitting them again.
        if step % 50 == 25 && !quiet {
            let id = a.itemIDs[Int(rng.next() * Double(a.itemCount))]
            var p = damped
            p.anchored = !anchored.contains(id)
            try a.setProperties(id, p)
            if p.anchored { anchored.insert(id) } else { anchored.remove(id) }
            anchorChanges += 1
        }
        if step % 60 == 30 && !quiet {
            if let g = group {
                a.removeGroup(g)
                group = nil
            } else {
                let ids = a.itemIDs
                let first = ids[Int(rng.next() * Double(ids.count))], second = ids[Int(rng.next() * Double(ids.count))]
                if first != second { group = try a.add(ItemGroupBehavior(items: [first, second])) }
                groupChanges += 1
            }
        }
    }
    #expect(sawSleepers)
    #expect(sawRemoval)
    #expect(anchorChanges > 5 && groupChanges > 3)
    #expect(a.world.contactCount > 50)
}

@Test(.timeLimit(.minutes(3))) func aRestingContactKeepsItsIdAndItsWarmStartImpulses() throws {
    let a = makeWorld()
    a.world.sleepingEnabled = false
    _ = try a.addItem(width: 40, height: 40, center: Vec2(400, 570))
    a.run(seconds: 1)
    let ground = a.world.contactIDs(ofBody: 0).filter { a.world.contacts[Int($0)].pointCount == 2 }
    #expect(ground.count == 1)
    let id = ground[0]
    let c0 = a.world.contacts[Int(id)]
    let impulse = c0.p0.normalImpulse + c0.p1.normalImpulse
    #expect(impulse > 0)
    for _ in 0..<60 {
        a.step()
        #expect(a.world.contacts[Int(id)].bodyA == 0, "the same contact id")
    }
    let c1 = a.world.contacts[Int(id)]
    #expect(c1.segment == c0.segment)
    // The box rests: the impulse that holds it (m g dt per step) is carried over, not rebuilt from zero.
    #expect(abs(c1.p0.normalImpulse + c1.p1.normalImpulse - impulse) < 0.01 * impulse)
}

@Test(.timeLimit(.minutes(3))) func aSleepingContactKeepsItsManifoldAndImpulses() throws {
    let a = makeWorld()
    _ = try a.addItem(width: 40, height: 40, center: Vec2(400, 570))
    a.run(seconds: 4)
    #expect(a.world.awakeCount == 0)
    let id = a.world.contactIDs(ofBody: 0).first { a.world.contacts[Int($0)].pointCount == 2 }!
    let before = a.world.contacts[Int(id)]
    #expect(before.p0.normalImpulse > 0)
    a.world.step()
    let after = a.world.contacts[Int(id)]
    #expect(a.world.narrowPhaseUpdates == 0)
    #expect(after.p0.normalImpulse == before.p0.normalImpulse)
    #expect(after.p0.baseSeparation == before.p0.baseSeparation)
    #expect(after.pointCount == 2)
}

@Test(.timeLimit(.minutes(3))) func aContactIsDestroyedOnceTheFatBoxesSeparate() throws {
    let a = makeWorld(gravity: false, collision: false)
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.mode = .items
    _ = a.add(c)
    let left = try a.addItem(width: 40, height: 40, center: Vec2(300, 300))
    _ = try a.addItem(width: 40, height: 40, center: Vec2(340.5, 300))
    a.step()
    #expect(a.world.contactCount == 1)
    let id = a.world.contactIDs(ofBody: 0)[0]
    #expect(a.world.contacts[Int(id)].pointCount > 0)
    // Drift apart at 1 pt per step: the contact lives (without points) until the fat boxes part.
    try a.addLinearVelocity(Vec2(-60, 0), to: left)
    var lastGapWithContact = 0.0
    for _ in 0..<200 where a.world.contactCount == 1 {
        lastGapWithContact = a.center(ItemID(2)).x - 20 - (a.center(left).x + 20)
        a.step()
    }
    #expect(a.world.contactCount == 0)
    #expect(a.world.contacts[Int(id)].bodyA == -1, "the slot is free")
    #expect(a.world.pairMap.count == 0)
    #expect(a.world.contactIDs(ofBody: 0).isEmpty && a.world.contactIDs(ofBody: 1).isEmpty)
    // Fat boxes are the boxes grown by 10 pt each (and by the step's motion), and the moving one's lags behind
    // by up to its margin again before it is reinserted: they part beyond a 20 pt gap, before a 40 pt one.
    #expect(lastGapWithContact > 2 * BroadPhase.aabbMargin - 2)
    #expect(lastGapWithContact < 4 * BroadPhase.aabbMargin + 6)
}

@Test(.timeLimit(.minutes(3))) func theNarrowPhaseUpdatesOnlyTheContactsOfAwakeBodies() throws {
    let a = makeWorld()
    for row in 0..<6 {
        for k in 0..<(6 - row) {
            _ = try a.addItem(width: 30, height: 30, center: Vec2(100 + Double(row) * 15 + Double(k) * 31, 585 - Double(row) * 30.5))
        }
    }
    let lone = try a.addItem(width: 30, height: 30, center: Vec2(700, 585))
    a.run(seconds: 10)
    #expect(a.world.awakeCount == 0)
    let total = a.world.contactCount
    #expect(total > 30)
    a.world.step()
    #expect(a.world.narrowPhaseUpdates == 0 && a.world.recycledManifolds == 0)
    #expect(a.world.movedProxies == 0)
    try a.addLinearVelocity(Vec2(0, -30), to: lone)
    a.step()
    let loneContacts = a.world.contactIDs(ofBody: a.world.bodies.count - 1)
    // Each of the lone box's contacts is updated: by the narrow phase, or recycled (Engine/ContactRecycling.swift).
    #expect(a.world.narrowPhaseUpdates + a.world.recycledManifolds == loneContacts.count)
    #expect(loneContacts.count <= 2)
    #expect(a.world.awakeContacts.count == loneContacts.count)
    #expect(a.world.movedProxies <= 1)
    #expect(a.world.contactCount == total)
}

@Test(.timeLimit(.minutes(3))) func removingAnItemEndsOnlyItsContactsAndReindexesTheRest() throws {
    let a = makeWorld()
    a.contactEventsEnabled = true
    let bottom = try a.addItem(width: 40, height: 40, center: Vec2(400, 580))
    let middle = try a.addItem(width: 40, height: 40, center: Vec2(400, 539.5))
    let top = try a.addItem(width: 40, height: 40, center: Vec2(400, 499))
    a.run(seconds: 1)
    _ = a.takeContactEvents()
    let upper = a.world.contactIDs(ofBody: 1).filter { a.world.contacts[Int($0)].bodyB == 2 }
    #expect(upper.count == 1)
    a.removeItem(bottom)
    let events = a.takeContactEvents()
    #expect(events.count == 2)
    #expect(events.allSatisfy { if case .ended(let id, _) = $0 { id == bottom } else { false } })
    let c = a.world.contacts[Int(upper[0])]
    #expect(c.bodyA == 0 && c.bodyB == 1, "the middle-top contact keeps its id, re-indexed")
    #expect(a.world.bodies[0].id == middle && a.world.bodies[1].id == top)
    #expect(contactPairs(a.world) == [pairKey(0, 1)])
    a.run(seconds: 1)
    #expect(contactPairs(a.world) == overlappingPairs(a.world))
}

@Test(.timeLimit(.minutes(3))) func removingTheCollisionBehaviorEndsContactsAndAddingItBackFindsThemWithoutMotion() throws {
    let a = makeWorld(gravity: false, collision: false)
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.mode = .items
    let cid = a.add(c)
    _ = try a.addItem(width: 40, height: 40, center: Vec2(300, 300))
    _ = try a.addItem(width: 40, height: 40, center: Vec2(340.2, 300))
    a.step()
    #expect(a.world.contactCount == 1)
    a.removeBehavior(cid)
    a.step()
    #expect(a.world.contactCount == 0)
    _ = a.add(c)
    a.step()
    #expect(a.world.contactCount == 1)
    #expect(a.world.contacts[Int(a.world.contactIDs(ofBody: 0)[0])].pointCount > 0)
}

@Test(.timeLimit(.minutes(3))) func groupingTwoTouchingItemsEndsTheirContact() throws {
    let a = makeWorld(gravity: false, collision: false)
    var c = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    c.mode = .items
    _ = a.add(c)
    let p = try a.addItem(width: 40, height: 40, center: Vec2(300, 300))
    let q = try a.addItem(width: 40, height: 40, center: Vec2(340.2, 300))
    a.step()
    #expect(a.world.contactCount == 1)
    _ = try a.add(ItemGroupBehavior(items: [p, q]))
    a.step()
    #expect(a.world.contactCount == 0)
}

@Test(.timeLimit(.minutes(3))) func anchoringAnItemKeepsItsContactsAndMovesItsProxyToTheStaticTree() throws {
    let a = makeWorld()
    a.world.sleepingEnabled = false
    let lower = try a.addItem(width: 40, height: 40, center: Vec2(400, 580))
    _ = try a.addItem(width: 40, height: 40, center: Vec2(400, 539.5))
    a.run(seconds: 1)
    let between = a.world.contactIDs(ofBody: 0).filter { a.world.contacts[Int($0)].bodyB == 1 }
    #expect(between.count == 1)
    #expect(!BroadPhase.isStatic(a.world.bodyProxy[0]))
    var p = ItemProperties()
    p.anchored = true
    try a.setProperties(lower, p)
    a.step()
    #expect(BroadPhase.isStatic(a.world.bodyProxy[0]))
    let c = a.world.contacts[Int(between[0])]
    #expect(c.bodyA == 0 && c.bodyB == 1 && c.pointCount > 0, "the same contact, still touching")
    #expect(c.proxyA == a.world.bodyProxy[0])
    // The anchored box's contact with the ground may no longer exist (two static proxies never collide).
    #expect(contactPairs(a.world) == overlappingPairs(a.world))
    #expect(!contactPairs(a.world).contains { $0 >> 32 == 0 && Int32(truncatingIfNeeded: $0) < 0 })
}

@Test(.timeLimit(.minutes(3))) func replacingBoundariesKeepsTheContactsOfUnchangedSegments() throws {
    let a = DynamicAnimator(width: 800, height: 600)
    _ = a.add(GravityBehavior())
    let bounds = a.add(CollisionBehavior())
    a.world.sleepingEnabled = false
    _ = try a.addItem(width: 40, height: 40, center: Vec2(400, 570))
    a.run(seconds: 1)
    let id = a.world.contactIDs(ofBody: 0).first { a.world.contacts[Int($0)].pointCount == 2 }!
    let bottom = a.world.segments[Int(a.world.contacts[Int(id)].segment)]
    var shelf = CollisionBehavior(translatesReferenceBoundsIntoBoundary: false)
    shelf.addBoundary(id: "shelf", from: Vec2(10, 100), to: Vec2(60, 100))
    _ = a.add(shelf)
    a.step()
    let c = a.world.contacts[Int(id)]
    #expect(c.bodyA == 0 && c.pointCount == 2, "the ground contact keeps its id")
    #expect(a.world.segments[Int(c.segment)].key == bottom.key)
    #expect(contactPairs(a.world) == overlappingPairs(a.world))
    a.removeBehavior(bounds)
    a.step()
    #expect(a.world.contacts[Int(id)].bodyA == -1, "the bounds are gone, and with them the ground contact")
    #expect(a.world.segments.count == 1)
    #expect(contactPairs(a.world) == overlappingPairs(a.world))
}
