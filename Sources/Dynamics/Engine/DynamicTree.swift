/// A dynamic AABB tree (after Box2D's `b2DynamicTree`): proxies with fattened boxes in a balanced binary
/// tree, so that a proxy that moves a little keeps its box and its pairs, and queries visit only overlapping
/// branches. `moveProxy` reinserts a proxy only when its tight box leaves its fat box; the broad phase
/// (Engine/BroadPhase.swift) keeps the move buffer and finds the new pairs of the moved proxies.
///
/// Guarantees: a query reports every proxy whose fat box overlaps the given box (never a missed pair);
/// nodes are reused through a free list, so a steady state allocates nothing; results depend only on the
/// sequence of calls (no hashing), so they are deterministic.
struct DynamicTree {
    static let nullNode: Int32 = -1

    struct Node {
        var box = AABB(minX: 0, minY: 0, maxX: 0, maxY: 0)
        var parent: Int32 = DynamicTree.nullNode
        var child1: Int32 = DynamicTree.nullNode
        var child2: Int32 = DynamicTree.nullNode
        /// Leaf: 0; free node: -1.
        var height: Int32 = -1
        /// The caller's id of a leaf's proxy.
        var userData: Int32 = -1
        /// A leaf in the broad phase's move buffer (its pairs are looked for in the next pair update).
        var moved = false
        var isLeaf: Bool { child1 == DynamicTree.nullNode }
    }

    private(set) var nodes: [Node] = []
    private(set) var root: Int32 = DynamicTree.nullNode
    private var freeList: Int32 = DynamicTree.nullNode
    private var stack: [Int32] = []
    /// Proxies alive (leaves).
    private(set) var proxyCount = 0
    /// How much a proxy's box is grown on insertion, pt.
    let margin: Double

    init(margin: Double = 4) { self.margin = margin }

    // MARK: proxies

    /// Adds a proxy for `box` (its fat box is `box` grown by `margin`) and returns its node id.
    mutating func createProxy(_ box: AABB, userData: Int32) -> Int32 {
        let id = allocateNode()
        nodes[Int(id)].box = fattened(box)
        nodes[Int(id)].userData = userData
        nodes[Int(id)].height = 0
        insertLeaf(id)
        proxyCount += 1
        return id
    }

    mutating func destroyProxy(_ id: Int32) {
        removeLeaf(id)
        freeNode(id)
        proxyCount -= 1
    }

    /// Updates a proxy's tight box; returns true when it left its fat box (the proxy was then reinserted with
    /// a new fat box around `box`).
    ///
    /// `displacement` is how far the proxy's owner moves in one step: a reinserted fat box reaches
    /// `DynamicTree.displacementMultiplier` steps ahead in that direction (Box2D 2.4's predicted AABB), so a body
    /// moving steadily is reinserted every few steps rather than every time it crosses the margin.
    @discardableResult
    mutating func moveProxy(_ id: Int32, _ box: AABB, displacement: Vec2 = .zero) -> Bool {
        let fat = nodes[Int(id)].box
        if fat.minX <= box.minX && fat.minY <= box.minY && box.maxX <= fat.maxX && box.maxY <= fat.maxY {
            return false
        }
        removeLeaf(id)
        var grown = fattened(box)
        let ahead = clampLength(displacement * Self.displacementMultiplier, Self.maxLookAhead)
        if ahead.x < 0 { grown.minX += ahead.x } else { grown.maxX += ahead.x }
        if ahead.y < 0 { grown.minY += ahead.y } else { grown.maxY += ahead.y }
        nodes[Int(id)].box = grown
        insertLeaf(id)
        return true
    }

    /// How many steps of motion a reinserted fat box reaches ahead (Box2D 2.4's `b2_aabbMultiplier`).
    static let displacementMultiplier = 4.0
    /// The look-ahead's longest reach (pt): a very fast body's fat box stays a few body lengths long rather than
    /// reaching across the room, so it is reinserted more often but pairs with few proxies it will never reach.
    static let maxLookAhead = 40.0

    @inline(__always) func fatBox(_ id: Int32) -> AABB { nodes[Int(id)].box }
    @inline(__always) func userData(_ id: Int32) -> Int32 { nodes[Int(id)].userData }
    @inline(__always) func isMoved(_ id: Int32) -> Bool { nodes[Int(id)].moved }
    mutating func setUserData(_ id: Int32, _ value: Int32) { nodes[Int(id)].userData = value }
    mutating func setMoved(_ id: Int32, _ moved: Bool) { nodes[Int(id)].moved = moved }

    /// Rewrites every leaf's user data (the world re-indexes its bodies after a removal).
    mutating func remapUserData(_ f: (Int32) -> Int32) {
        for k in 0..<nodes.count where nodes[k].height == 0 { nodes[k].userData = f(nodes[k].userData) }
    }

    // MARK: queries

    /// Calls `visit` with every leaf whose fat box overlaps `box`.
    mutating func query(_ box: AABB, _ visit: (Int32) -> Void) {
        var st: [Int32] = []
        swap(&st, &stack)
        query(box, stack: &st, visit)
        swap(&st, &stack)
    }

    /// `query` with the caller's scratch stack, so that a caller can query while reading the tree. The walk is
    /// depth first over unsafe buffers (no uniqueness checks per push): the stack never holds more than one
    /// pending sibling per level, so `height + 2` slots are enough.
    func query(_ box: AABB, stack: inout [Int32], _ visit: (Int32) -> Void) {
        guard root != Self.nullNode else { return }
        let need = Int(nodes[Int(root)].height) + 2
        if stack.count < need { stack = [Int32](repeating: Self.nullNode, count: max(64, 2 * need)) }
        let start = root
        nodes.withUnsafeBufferPointer { nb in
            stack.withUnsafeMutableBufferPointer { sb in
                sb[0] = start
                var top = 1
                while top > 0 {
                    top -= 1
                    let id = sb[top]
                    let node = nb[Int(id)]
                    guard node.box.overlaps(box) else { continue }
                    if node.isLeaf {
                        visit(id)
                    } else {
                        precondition(top + 2 <= sb.count, "DynamicTree: height out of date")
                        sb[top] = node.child1
                        sb[top + 1] = node.child2
                        top += 2
                    }
                }
            }
        }
    }

    /// Height of the tree (0 for a single leaf, -1 when empty).
    var height: Int32 { root == Self.nullNode ? -1 : nodes[Int(root)].height }

    // MARK: nodes

    private func fattened(_ b: AABB) -> AABB {
        AABB(minX: b.minX - margin, minY: b.minY - margin, maxX: b.maxX + margin, maxY: b.maxY + margin)
    }

    private mutating func allocateNode() -> Int32 {
        if freeList != Self.nullNode {
            let id = freeList
            freeList = nodes[Int(id)].parent
            nodes[Int(id)] = Node()
            return id
        }
        nodes.append(Node())
        return Int32(nodes.count - 1)
    }

    private mutating func freeNode(_ id: Int32) {
        nodes[Int(id)] = Node()
        nodes[Int(id)].parent = freeList
        freeList = id
    }

    private static func union(_ a: AABB, _ b: AABB) -> AABB {
        AABB(minX: min(a.minX, b.minX), minY: min(a.minY, b.minY), maxX: max(a.maxX, b.maxX), maxY: max(a.maxY, b.maxY))
    }

    private static func perimeter(_ a: AABB) -> Double { 2 * ((a.maxX - a.minX) + (a.maxY - a.minY)) }

    /// Inserts a leaf next to the sibling that grows the tree's surface least (Box2D's branch-and-descend
    /// cost), then refits and rebalances the ancestors. The tree surgery runs on the node buffer (no
    /// uniqueness check per write); the one node it needs is allocated first.
    private mutating func insertLeaf(_ leaf: Int32) {
        if root == Self.nullNode {
            root = leaf
            nodes[Int(leaf)].parent = Self.nullNode
            return
        }
        let newParent = allocateNode()
        var r = root
        nodes.withUnsafeMutableBufferPointer { nb in Self.insert(leaf, parent: newParent, root: &r, nb.baseAddress!) }
        root = r
    }

    private static func insert(_ leaf: Int32, parent newParent: Int32, root: inout Int32,
                               _ nodes: UnsafeMutablePointer<Node>) {
        let leafBox = nodes[Int(leaf)].box
        var index = root
        while !nodes[Int(index)].isLeaf {
            let node = nodes[Int(index)]
            let area = perimeter(node.box)
            let combinedArea = perimeter(union(node.box, leafBox))
            let cost = 2 * combinedArea
            let inheritance = 2 * (combinedArea - area)
            func descendCost(_ child: Int32) -> Double {
                let c = nodes[Int(child)]
                let grown = perimeter(union(leafBox, c.box))
                return c.isLeaf ? grown + inheritance : grown - perimeter(c.box) + inheritance
            }
            let cost1 = descendCost(node.child1), cost2 = descendCost(node.child2)
            if cost < cost1 && cost < cost2 { break }
            index = cost1 < cost2 ? node.child1 : node.child2
        }
        let sibling = index
        let oldParent = nodes[Int(sibling)].parent
        nodes[Int(newParent)].parent = oldParent
        nodes[Int(newParent)].box = union(leafBox, nodes[Int(sibling)].box)
        nodes[Int(newParent)].height = nodes[Int(sibling)].height + 1
        nodes[Int(newParent)].child1 = sibling
        nodes[Int(newParent)].child2 = leaf
        nodes[Int(sibling)].parent = newParent
        nodes[Int(leaf)].parent = newParent
        if oldParent != nullNode {
            if nodes[Int(oldParent)].child1 == sibling {
                nodes[Int(oldParent)].child1 = newParent
            } else {
                nodes[Int(oldParent)].child2 = newParent
            }
        } else {
            root = newParent
        }
        refit(from: nodes[Int(leaf)].parent, root: &root, nodes)
    }

    private mutating func removeLeaf(_ leaf: Int32) {
        if leaf == root {
            root = Self.nullNode
            return
        }
        var r = root, free = freeList
        nodes.withUnsafeMutableBufferPointer { nb in Self.remove(leaf, root: &r, freeList: &free, nb.baseAddress!) }
        root = r
        freeList = free
    }

    private static func remove(_ leaf: Int32, root: inout Int32, freeList: inout Int32,
                               _ nodes: UnsafeMutablePointer<Node>) {
        let parent = nodes[Int(leaf)].parent
        let grandParent = nodes[Int(parent)].parent
        let sibling = nodes[Int(parent)].child1 == leaf ? nodes[Int(parent)].child2 : nodes[Int(parent)].child1
        if grandParent != nullNode {
            if nodes[Int(grandParent)].child1 == parent {
                nodes[Int(grandParent)].child1 = sibling
            } else {
                nodes[Int(grandParent)].child2 = sibling
            }
            nodes[Int(sibling)].parent = grandParent
            free(parent, &freeList, nodes)
            refit(from: grandParent, root: &root, nodes)
        } else {
            root = sibling
            nodes[Int(sibling)].parent = nullNode
            free(parent, &freeList, nodes)
        }
        nodes[Int(leaf)].parent = nullNode
    }

    private static func free(_ id: Int32, _ freeList: inout Int32, _ nodes: UnsafeMutablePointer<Node>) {
        nodes[Int(id)] = Node()
        nodes[Int(id)].parent = freeList
        freeList = id
    }

    /// Walks up from `start`, rebalancing and recomputing boxes and heights.
    private static func refit(from start: Int32, root: inout Int32, _ nodes: UnsafeMutablePointer<Node>) {
        var index = start
        while index != nullNode {
            index = balance(index, root: &root, nodes)
            let c1 = nodes[Int(index)].child1, c2 = nodes[Int(index)].child2
            nodes[Int(index)].height = 1 + max(nodes[Int(c1)].height, nodes[Int(c2)].height)
            nodes[Int(index)].box = union(nodes[Int(c1)].box, nodes[Int(c2)].box)
            index = nodes[Int(index)].parent
        }
    }

    /// Box2D 2.4's rotation: if a subtree is more than one level taller than its sibling, promote it.
    /// Returns the node now at `a`'s place.
    private static func balance(_ a: Int32, root: inout Int32, _ nodes: UnsafeMutablePointer<Node>) -> Int32 {
        let A = nodes[Int(a)]
        if A.isLeaf || A.height < 2 { return a }
        let b = A.child1, c = A.child2
        let diff = nodes[Int(c)].height - nodes[Int(b)].height
        if diff > 1 { return rotate(up: c, over: a, keeping: b, root: &root, nodes) }
        if diff < -1 { return rotate(up: b, over: a, keeping: c, root: &root, nodes) }
        return a
    }

    /// Promotes child `up` of `a` (whose other child is `other`) into `a`'s place; `a` takes the shorter of
    /// `up`'s children.
    private static func rotate(up: Int32, over a: Int32, keeping other: Int32, root: inout Int32,
                               _ nodes: UnsafeMutablePointer<Node>) -> Int32 {
        let f = nodes[Int(up)].child1, g = nodes[Int(up)].child2
        let aParent = nodes[Int(a)].parent
        nodes[Int(up)].child1 = a
        nodes[Int(up)].parent = aParent
        nodes[Int(a)].parent = up
        if aParent != nullNode {
            if nodes[Int(aParent)].child1 == a {
                nodes[Int(aParent)].child1 = up
            } else {
                nodes[Int(aParent)].child2 = up
            }
        } else {
            root = up
        }
        let (keep, give) = nodes[Int(f)].height > nodes[Int(g)].height ? (f, g) : (g, f)
        nodes[Int(up)].child2 = keep
        if nodes[Int(a)].child1 == up { nodes[Int(a)].child1 = give } else { nodes[Int(a)].child2 = give }
        nodes[Int(give)].parent = a
        nodes[Int(a)].box = union(nodes[Int(other)].box, nodes[Int(give)].box)
        nodes[Int(a)].height = 1 + max(nodes[Int(other)].height, nodes[Int(give)].height)
        nodes[Int(up)].box = union(nodes[Int(a)].box, nodes[Int(keep)].box)
        nodes[Int(up)].height = 1 + max(nodes[Int(a)].height, nodes[Int(keep)].height)
        return up
    }
}
