import Testing
@testable import Dynamics

/// Steps until the animator pauses (every item asleep) or `maxSteps` pass; returns the steps taken.
@discardableResult
private func runUntilAsleep(_ a: DynamicAnimator, maxSteps: Int = 3000) -> Int {
    var n = 0
    while a.isRunning && n < maxSteps {
        a.step()
        n += 1
    }
    return n
}

private func isAwake(_ a: DynamicAnimator, _ id: ItemID) -> Bool { a.world.bodies[a.indexOf[id]!].awake }
private func island(_ a: DynamicAnimator, _ id: ItemID) -> Int32 { a.world.bodies[a.indexOf[id]!].island }

/// A 6-row pyramid of 40 pt boxes standing on the floor of an 800 × 600 world, centred at `x`.
private func addPyramid(_ a: DynamicAnimator, x: Double, rows: Int = 6) throws -> [ItemID] {
    var ids: [ItemID] = []
    for i in 0..<rows {
        for j in 0..<(rows - i) {
            let c = Vec2(x + (Double(j) - 0.5 * Double(rows - i - 1)) * 40, 600 - (Double(i) + 0.5) * 40)
            ids.append(try a.addItem(width: 40, height: 40, center: c, properties: .init(friction: 0.6)))
        }
    }
    return ids
}

@Test(.timeLimit(.minutes(3))) func aSettledPileCostsNothingWhileOneLoneBoxIsPushed() throws {
    let a = makeWorld()
    let pile = try addPyramid(a, x: 250)
    let lone = try a.addItem(width: 40, height: 40, center: Vec2(700, 580), properties: .init(friction: 0.6))
    runUntilAsleep(a)
    #expect(!a.isRunning)
    var push = PushBehavior(items: [lone], mode: .continuous)
    push.magnitude = 0.05
    _ = try a.add(push)
    for _ in 0..<30 { a.step() }
    // Only the lone box is stepped: one body grown for the broad phase, one finalized, none of the pile.
    #expect(a.world.awakeBodies == [Int32(a.indexOf[lone]!)])
    #expect(a.world.proxiesPreparedLastStep == 1)
    #expect(a.world.bodiesFinalizedLastStep == 1)
    #expect(a.world.awakeContacts.count == 1)
    #expect(pile.allSatisfy { !isAwake(a, $0) })
}

@Test(.timeLimit(.minutes(3))) func aPileHitFromAboveWakesWholeAndAnotherPileSleepsOn() throws {
    let a = makeWorld()
    let hit = try addPyramid(a, x: 200)
    let other = try addPyramid(a, x: 600)
    runUntilAsleep(a)
    #expect(!a.isRunning)
    #expect(island(a, hit[0]) != island(a, other[0]))
    let ball = try a.addItem(shape: .ellipse, width: 30, height: 30, center: Vec2(200, 300))
    var firstAwakeStep: Int?
    for step in 1...120 {
        a.step()
        // The top box is the first the ball touches; from that step on the whole pile is awake.
        if firstAwakeStep == nil && isAwake(a, hit.last!) {
            firstAwakeStep = step
            #expect(hit.allSatisfy { isAwake(a, $0) })
            #expect(island(a, ball) == island(a, hit[0]))
        }
    }
    #expect(firstAwakeStep != nil)
    #expect(other.allSatisfy { !isAwake(a, $0) })
}

@Test(.timeLimit(.minutes(3))) func aBoxPushedOffAPileSleepsInAnIslandOfItsOwn() throws {
    let a = makeWorld()
    let bottom = try a.addItem(width: 60, height: 60, center: Vec2(200, 570), properties: .init(friction: 0.6))
    let top = try a.addItem(width: 40, height: 40, center: Vec2(200, 520), properties: .init(friction: 0.6))
    runUntilAsleep(a)
    #expect(!a.isRunning)
    #expect(island(a, bottom) == island(a, top))
    var push = PushBehavior(items: [top], mode: .instantaneous)
    push.pushDirection = Vec2(0.8, -0.1)
    _ = try a.add(push)
    runUntilAsleep(a)
    #expect(!a.isRunning)
    #expect(a.center(top).x > 300)
    #expect(island(a, bottom) != island(a, top))
    // Waking the box that slid away leaves the one it left asleep.
    try a.wake(item: top)
    a.step()
    #expect(isAwake(a, top))
    #expect(!isAwake(a, bottom))
}

@Test(.timeLimit(.minutes(3))) func anAttachmentJoinsTwoItemsInOneIslandUntilItIsRemoved() throws {
    let a = makeWorld()
    let left = try a.addItem(width: 40, height: 40, center: Vec2(200, 580))
    let right = try a.addItem(width: 40, height: 40, center: Vec2(400, 580))
    #expect(island(a, left) != island(a, right))
    let rope = try a.add(AttachmentBehavior.items(left, right))
    runUntilAsleep(a)
    #expect(!a.isRunning)
    #expect(island(a, left) == island(a, right))
    try a.wake(item: left)
    #expect(isAwake(a, right))
    a.removeBehavior(rope)
    runUntilAsleep(a)
    #expect(!a.isRunning)
    #expect(island(a, left) != island(a, right))
    try a.wake(item: left)
    #expect(!isAwake(a, right))
}

@Test(.timeLimit(.minutes(3))) func anAttachmentToASleepingItemWakesItsIsland() throws {
    let a = makeWorld()
    let pile = try addPyramid(a, x: 200, rows: 3)
    let lone = try a.addItem(width: 40, height: 40, center: Vec2(600, 580))
    runUntilAsleep(a)
    try a.wake(item: lone)
    #expect(pile.allSatisfy { !isAwake(a, $0) })
    _ = try a.add(AttachmentBehavior.items(lone, pile[0]))
    a.step()
    #expect(pile.allSatisfy { isAwake(a, $0) })
    #expect(island(a, lone) == island(a, pile[0]))
}

/// A small deterministic generator (SplitMix64) for the command sequences below.
private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// The awake set and the islands against a recomputation from the bodies, contacts and joints.
private func setsAreConsistent(_ a: DynamicAnimator) -> Bool {
    a.world.normalizeAwakeSet()
    let w = a.world
    guard w.awakeSetMatchesBodies() else { return false }
    var members = 0
    for i in 0..<w.bodies.count {
        let b = w.bodies[i]
        if b.isStatic {
            if b.island != -1 { return false }
            continue
        }
        members += 1
        let k = Int(b.island)
        guard k >= 0, k < w.islands.count, w.islands[k].inUse, Int(b.islandIndex) < w.islands[k].bodies.count,
              w.islands[k].bodies[Int(b.islandIndex)] == Int32(i), w.islands[k].awake == b.awake else { return false }
    }
    guard members == w.islands.filter(\.inUse).reduce(0, { $0 + $1.bodies.count }) else { return false }
    for (at, k) in w.awakeIslands.enumerated() where !w.islands[Int(k)].awake || w.islands[Int(k)].awakeIndex != at {
        return false
    }
    guard w.awakeIslands.count == w.islands.filter({ $0.inUse && $0.awake }).count else { return false }
    func linked(_ p: Int32, _ q: Int32) -> Bool {
        guard p >= 0, q >= 0 else { return true }
        let bp = w.bodies[Int(p)], bq = w.bodies[Int(q)]
        return bp.isStatic || bq.isStatic || bp.island == bq.island
    }
    for c in w.contacts where c.pointCount > 0 && !linked(c.bodyA, c.bodyB) { return false }
    for j in w.joints where !linked(j.bodyA, j.bodyB) { return false }
    for j in w.constraintJoints where !linked(j.bodyA, j.bodyB) { return false }
    // The awake joints: exactly those with an awake body, ascending.
    func awake(_ b: Int32) -> Bool { b >= 0 && w.bodies[Int(b)].isDynamicAwake }
    a.world.buildAwakeJoints()
    let joints = w.joints.indices.filter { awake(w.joints[$0].bodyA) || awake(w.joints[$0].bodyB) }
    let constraintJoints = w.constraintJoints.indices.filter {
        awake(w.constraintJoints[$0].bodyA) || awake(w.constraintJoints[$0].bodyB)
    }
    return a.world.awakeJointIDs == joints.map { Int32($0) }
        && a.world.awakeConstraintJointIDs == constraintJoints.map { Int32($0) }
}

@Test(.timeLimit(.minutes(3)), arguments: [7, 11, 23]) func randomCommandsKeepTheAwakeSetAndIslandsConsistent(seed: Int) throws {
    var rng = SplitMix(state: UInt64(seed))
    let a = makeWorld()
    var items: [ItemID] = []
    var attachments: [BehaviorID] = [], groups: [BehaviorID] = []
    for _ in 0..<12 {
        items.append(try a.addItem(width: 40, height: 40, center: Vec2(100 + rng.unit() * 600, 300 + rng.unit() * 250)))
    }
    var failures = 0, stepsWithASleepingIsland = 0
    for _ in 0..<400 {
        switch rng.below(11) {
        case 0:
            items.append(try a.addItem(width: 30 + rng.unit() * 30, height: 30, center: Vec2(60 + rng.unit() * 680, 100 + rng.unit() * 450)))
        case 1 where items.count > 2:
            let id = items.remove(at: rng.below(items.count))
            a.removeItem(id)
        case 2 where !items.isEmpty:
            let id = items[rng.below(items.count)]
            var p = a.item(id)!.properties
            p.anchored.toggle()
            try a.setProperties(id, p)
        case 3 where items.count > 1:
            let p = items[rng.below(items.count)], q = items[rng.below(items.count)]
            if p != q { attachments.append(try a.add(AttachmentBehavior.items(p, q))) }
        case 4 where !attachments.isEmpty:
            a.removeBehavior(attachments.remove(at: rng.below(attachments.count)))
        case 5 where !items.isEmpty:
            var push = PushBehavior(items: [items[rng.below(items.count)]], mode: .instantaneous)
            push.pushDirection = Vec2(rng.unit() * 2 - 1, -rng.unit())
            _ = try a.add(push)
        case 7 where items.count > 1:
            let p = items[rng.below(items.count)], q = items[rng.below(items.count)]
            if p != q, let g = try? a.add(ItemGroupBehavior(items: [p, q])) { groups.append(g) }
        case 8 where !groups.isEmpty:
            a.removeGroup(groups.remove(at: rng.below(groups.count)))
        case 6 where !items.isEmpty:
            try a.setTransform(items[rng.below(items.count)], center: Vec2(60 + rng.unit() * 680, 100 + rng.unit() * 450), angle: rng.unit())
        default:
            for _ in 0..<(1 + rng.below(90)) {
                a.step()
                if !setsAreConsistent(a) { failures += 1 }
                if a.world.islands.contains(where: { $0.inUse && !$0.awake }) { stepsWithASleepingIsland += 1 }
            }
        }
        if !setsAreConsistent(a) { failures += 1 }
    }
    #expect(failures == 0)
    // The sequence really puts islands to sleep (and wakes them), not only awake ones.
    #expect(stepsWithASleepingIsland > 100)
    runUntilAsleep(a, maxSteps: 6000)
    #expect(setsAreConsistent(a))
}

@Test(.timeLimit(.minutes(3))) func aFieldKeepsOnlyTheItemsItMovesAwake() throws {
    let a = makeWorld()
    let pile = try addPyramid(a, x: 200, rows: 4)
    let lone = try a.addItem(width: 40, height: 40, center: Vec2(650, 580))
    runUntilAsleep(a)
    // A vortex around the lone box only: adding it wakes everything, then the pile (outside its region) falls
    // asleep again while the box it turns stays awake, alone in the step.
    var vortex = FieldBehavior(kind: .vortex, position: Vec2(650, 580), strength: 0.5)
    vortex.region = .circle(radius: 60)
    _ = try a.add(vortex)
    #expect(pile.allSatisfy { isAwake(a, $0) })
    for _ in 0..<120 { a.step() }
    #expect(a.isRunning)
    #expect(pile.allSatisfy { !isAwake(a, $0) })
    #expect(isAwake(a, lone))
    #expect(a.world.bodiesFinalizedLastStep == 1)
}

@Test(.timeLimit(.minutes(3))) func anchoringTheMiddleOfAStackSplitsItsIsland() throws {
    let a = makeWorld()
    let bottom = try a.addItem(width: 40, height: 40, center: Vec2(400, 580), properties: .init(friction: 0.6))
    let middle = try a.addItem(width: 40, height: 40, center: Vec2(400, 540), properties: .init(friction: 0.6))
    let top = try a.addItem(width: 40, height: 40, center: Vec2(400, 500), properties: .init(friction: 0.6))
    runUntilAsleep(a)
    #expect(island(a, bottom) == island(a, top))
    var p = a.item(middle)!.properties
    p.anchored = true
    try a.setProperties(middle, p)
    #expect(island(a, middle) == -1)
    runUntilAsleep(a)
    #expect(!a.isRunning)
    #expect(island(a, bottom) != island(a, top))
    try a.wake(item: top)
    #expect(isAwake(a, top))
    #expect(!isAwake(a, bottom))
}

@Test(.timeLimit(.minutes(3))) func aSleepingChainOfPinnedItemsIsNotSolved() throws {
    let a = makeWorld()
    var links: [ItemID] = []
    // Hanging straight down from a pin, so it starts at rest.
    for k in 0..<8 {
        links.append(try a.addItem(width: 10, height: 30, center: Vec2(100, 100 + Double(k) * 30),
                                   properties: .init(resistance: 1, angularResistance: 1)))
    }
    _ = try a.add(PinAttachmentBehavior(item: links[0], point: Vec2(100, 85)))
    for k in 1..<links.count {
        _ = try a.add(PinAttachmentBehavior(item: links[k], otherItem: links[k - 1], point: Vec2(100, 85 + Double(k) * 30)))
    }
    let lone = try a.addItem(width: 40, height: 40, center: Vec2(650, 580))
    a.step()
    #expect(a.world.awakeConstraintJointIDs.count == links.count)
    runUntilAsleep(a, maxSteps: 6000)
    #expect(!a.isRunning)
    var push = PushBehavior(items: [lone], mode: .continuous)
    push.magnitude = 0.05
    _ = try a.add(push)
    for _ in 0..<10 { a.step() }
    // The hanging chain sleeps: none of its joints is handed to the solver while the lone box moves.
    #expect(a.world.awakeConstraintJointIDs.isEmpty)
    #expect(a.world.bodiesFinalizedLastStep == 1)
}

@Test(.timeLimit(.minutes(3))) func aSleepingGroupStaysPutWhileAnotherGroupFallsRigid() throws {
    let a = makeWorld()
    let resting = [try a.addItem(width: 40, height: 40, center: Vec2(200, 580)),
                   try a.addItem(width: 40, height: 40, center: Vec2(240, 580))]
    _ = try a.add(ItemGroupBehavior(items: resting))
    runUntilAsleep(a)
    let asleepAt = resting.map { a.center($0) }
    let falling = [try a.addItem(width: 40, height: 40, center: Vec2(600, 100), angle: 0.3),
                   try a.addItem(width: 40, height: 40, center: Vec2(640, 100), angle: 0.3)]
    _ = try a.add(ItemGroupBehavior(items: falling))
    let gap = distance(a.center(falling[0]), a.center(falling[1]))
    for _ in 0..<90 {
        a.step()
        #expect(abs(distance(a.center(falling[0]), a.center(falling[1])) - gap) < 1e-6)
    }
    #expect(a.center(falling[0]).y > 300)
    #expect(resting.map { a.center($0) } == asleepAt)
    #expect(resting.allSatisfy { !isAwake(a, $0) })
}

@Test(.timeLimit(.minutes(3))) func restoringAtRestPutsEveryIslandToSleepAndAPushWakesOnlyItsOwn() throws {
    let a = makeWorld()
    let left = try addPyramid(a, x: 200, rows: 3)
    let right = try addPyramid(a, x: 600, rows: 3)
    a.step()
    a.restoreAtRest()
    #expect(!a.isRunning)
    #expect(a.world.awakeBodies.isEmpty)
    #expect(a.world.awakeIslands.isEmpty)
    #expect(setsAreConsistent(a))
    var push = PushBehavior(items: [right[0]], mode: .instantaneous)
    push.pushDirection = Vec2(0.1, 0)
    _ = try a.add(push)
    a.step()
    #expect(right.allSatisfy { isAwake(a, $0) })
    #expect(left.allSatisfy { !isAwake(a, $0) })
}
