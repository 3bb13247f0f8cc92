/// A candidate pair of broad-phase proxy keys whose fat boxes overlap; `a < b`.
struct ProxyPair {
    var a: Int32
    var b: Int32
}

/// The broad phase (after Box2D v3's `b2BroadPhase`): one dynamic AABB tree per body type (a static tree for
/// boundary segments and anchored items, a movable tree for every other body, awake or asleep) and a move
/// buffer. A proxy keeps a fat box (its tight box grown by `aabbMargin`); only a proxy whose tight box left its
/// fat box is reinserted and buffered, and `findPairs` looks for new pairs of buffered proxies only, so the
/// cost of pair finding grows with what moves, not with the world. A sleeping body's proxy is never touched.
///
/// Guarantees: after `findPairs`, every pair of proxies whose fat boxes overlap, except two static proxies, has
/// been reported at least once since one of them last moved (never a missed pair, no cap); each call reports a
/// pair at most once; the order depends only on the sequence of calls, so it is deterministic.
///
/// A proxy key is `node << 1 | tree`: tree 0 is the static tree, 1 the movable tree. Keys are stable while the
/// proxy lives (a reinsertion keeps its node), so contacts can be keyed by their two proxies.
struct BroadPhase {
    /// Box2D's `aabbMargin` (0.1 m, 10 pt at dyn's 100 pt per metre): how far a proxy may move before it is
    /// reinserted and looks for new pairs.
    static let aabbMargin = 10.0

    private(set) var staticTree = DynamicTree(margin: aabbMargin)
    private(set) var movableTree = DynamicTree(margin: aabbMargin)
    /// Keys of proxies created or reinserted since the last `findPairs`; -1 marks a destroyed entry.
    private(set) var moveBuffer: [Int32] = []
    private var stack: [Int32] = []

    @inline(__always) static func key(node: Int32, isStatic: Bool) -> Int32 { node << 1 | (isStatic ? 0 : 1) }
    @inline(__always) static func node(_ key: Int32) -> Int32 { key >> 1 }
    @inline(__always) static func isStatic(_ key: Int32) -> Bool { key & 1 == 0 }

    var proxyCount: Int { staticTree.proxyCount + movableTree.proxyCount }

    /// Adds a proxy for the tight box `box` and buffers it, so that its pairs are found by the next `findPairs`.
    mutating func createProxy(_ box: AABB, owner: Int32, isStatic: Bool) -> Int32 {
        let node = isStatic ? staticTree.createProxy(box, userData: owner)
                            : movableTree.createProxy(box, userData: owner)
        let key = Self.key(node: node, isStatic: isStatic)
        bufferMove(key)
        return key
    }

    /// Removes a proxy. Its contacts must be gone first (its key may be reused by the next proxy).
    mutating func destroyProxy(_ key: Int32) {
        let node = Self.node(key)
        if Self.isStatic(key) {
            if staticTree.isMoved(node), let k = moveBuffer.firstIndex(of: key) { moveBuffer[k] = -1 }
            staticTree.destroyProxy(node)
        } else {
            if movableTree.isMoved(node), let k = moveBuffer.firstIndex(of: key) { moveBuffer[k] = -1 }
            movableTree.destroyProxy(node)
        }
    }

    /// Gives a proxy its new tight box: if the box left the fat box, the proxy is reinserted and buffered.
    /// `displacement`: how far its owner moves in a step (the fat box reaches ahead along it, DynamicTree).
    @inline(__always) mutating func moveProxy(_ key: Int32, _ box: AABB, displacement: Vec2 = .zero) {
        let node = Self.node(key)
        let left = Self.isStatic(key) ? staticTree.moveProxy(node, box, displacement: displacement)
                                      : movableTree.moveProxy(node, box, displacement: displacement)
        if left { bufferMove(key) }
    }

    /// Queues a proxy for the next `findPairs` (a new proxy, a moved one, or one whose filter changed).
    mutating func bufferMove(_ key: Int32) {
        let node = Self.node(key)
        if Self.isStatic(key) {
            if staticTree.isMoved(node) { return }
            staticTree.setMoved(node, true)
        } else {
            if movableTree.isMoved(node) { return }
            movableTree.setMoved(node, true)
        }
        moveBuffer.append(key)
    }

    @inline(__always) func fatBox(_ key: Int32) -> AABB {
        Self.isStatic(key) ? staticTree.fatBox(Self.node(key)) : movableTree.fatBox(Self.node(key))
    }

    /// The proxy's owner: a body index (>= 0) or `-1 - segment`.
    @inline(__always) func owner(_ key: Int32) -> Int32 {
        Self.isStatic(key) ? staticTree.userData(Self.node(key)) : movableTree.userData(Self.node(key))
    }

    mutating func setOwner(_ key: Int32, _ owner: Int32) {
        if Self.isStatic(key) {
            staticTree.setUserData(Self.node(key), owner)
        } else {
            movableTree.setUserData(Self.node(key), owner)
        }
    }

    /// Rewrites every proxy's owner (body indices shift when a body is removed).
    mutating func remapOwners(_ f: (Int32) -> Int32) {
        staticTree.remapUserData(f)
        movableTree.remapUserData(f)
    }

    /// Reports every pair of overlapping fat boxes with a buffered proxy into `pairs` (each pair once), then
    /// empties the move buffer. A movable proxy queries both trees; a static one queries the movable tree only
    /// (two static proxies never collide). When both proxies of a pair moved, the pair is reported from one
    /// side only: the smaller key in the movable tree, the static proxy's query across the trees.
    mutating func findPairs(into pairs: inout [ProxyPair]) {
        pairs.removeAll(keepingCapacity: true)
        var st: [Int32] = []
        swap(&st, &stack)
        for key in moveBuffer where key >= 0 {
            let box = fatBox(key)
            if Self.isStatic(key) {
                movableTree.query(box, stack: &st) { n in
                    let other = Self.key(node: n, isStatic: false)
                    pairs.append(ProxyPair(a: min(key, other), b: max(key, other)))
                }
            } else {
                movableTree.query(box, stack: &st) { n in
                    let other = Self.key(node: n, isStatic: false)
                    if other == key || (other < key && movableTree.isMoved(n)) { return }
                    pairs.append(ProxyPair(a: min(key, other), b: max(key, other)))
                }
                staticTree.query(box, stack: &st) { n in
                    if staticTree.isMoved(n) { return }
                    let other = Self.key(node: n, isStatic: true)
                    pairs.append(ProxyPair(a: min(key, other), b: max(key, other)))
                }
            }
        }
        swap(&st, &stack)
        for key in moveBuffer where key >= 0 {
            if Self.isStatic(key) {
                staticTree.setMoved(Self.node(key), false)
            } else {
                movableTree.setMoved(Self.node(key), false)
            }
        }
        moveBuffer.removeAll(keepingCapacity: true)
    }
}
