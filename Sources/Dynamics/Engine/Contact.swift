/// One persistent point of a contact's manifold. Anchors are relative to the body centers, in world
/// orientation, fixed for the step (Box2D v3's soft step); the accumulated impulses warm-start the next step.
/// The solver works on its compact copy, `ConstraintPoint`.
struct ContactPoint {
    var anchorA = Vec2.zero
    var anchorB = Vec2.zero
    var baseSeparation = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    var id: UInt32 = 0
}

/// A contact between a body and another body or a boundary segment, persistent across steps by `keyA/keyB`
/// (item ids, or negative segment keys) so that impulses warm-start the next step. Only persistent data
/// (manifold, impulses, material, touching state): the per-step solver data lives in `ContactConstraint`.
struct Contact {
    var bodyA: Int32
    /// Body index, or -1 for a boundary segment (a static proxy).
    var bodyB: Int32
    var segment: Int32
    var keyA: Int
    var keyB: Int
    var normal = Vec2.zero
    var pointCount: Int32 = 0
    var p0 = ContactPoint()
    var p1 = ContactPoint()
    var friction = 0.0
    var restitution = 0.0
    /// Event state: true once the surfaces touch (with hysteresis), reported as began/ended.
    var touching = false

    var minSeparation: Double {
        pointCount == 0 ? .infinity : (pointCount == 1 ? p0.baseSeparation : min(p0.baseSeparation, p1.baseSeparation))
    }
}

/// Open-addressing table from a contact's key pair to its index in the previous step's contact array.
/// Used for look-ups only (never iterated), so it cannot affect determinism.
struct PairTable {
    private var keyA: [Int] = []
    private var keyB: [Int] = []
    private var value: [Int32] = []
    private var mask = 0

    mutating func reset(count: Int) {
        var size = 16
        while size < 2 * count { size <<= 1 }
        mask = size - 1
        if keyA.count != size {
            keyA = Array(repeating: 0, count: size)
            keyB = Array(repeating: 0, count: size)
            value = Array(repeating: -1, count: size)
        } else {
            for i in 0..<size { value[i] = -1 }
        }
    }

    @inline(__always) private func slot(_ a: Int, _ b: Int) -> Int {
        var h = UInt64(bitPattern: Int64(a)) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(bitPattern: Int64(b)) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= h >> 29
        return Int(truncatingIfNeeded: h) & mask
    }

    mutating func insert(_ a: Int, _ b: Int, _ v: Int32) {
        var s = slot(a, b)
        while value[s] >= 0 { s = (s + 1) & mask }
        keyA[s] = a
        keyB[s] = b
        value[s] = v
    }

    func find(_ a: Int, _ b: Int) -> Int32 {
        if value.isEmpty { return -1 }
        var s = slot(a, b)
        while value[s] >= 0 {
            if keyA[s] == a && keyB[s] == b { return value[s] }
            s = (s + 1) & mask
        }
        return -1
    }
}
