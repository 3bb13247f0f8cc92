/// The awake joints (the joint half of Box2D v3's awake solver set): `awakeJointIDs` and
/// `awakeConstraintJointIDs`, the indices into `joints` and `constraintJoints` of the joints with at least one
/// awake body, ascending (so the solver meets them in the same order as in the arrays). A joint whose bodies
/// all sleep or are static moves nothing: the solver prepares, colours and solves only the listed joints, so a
/// sleeping jointed world costs nothing (and a sleeping joint keeps its impulses to warm-start when it wakes).
///
/// Guarantees: after `buildAwakeJoints()` (run by every step after the contact update, when islands may have
/// woken bodies), both lists hold exactly those joints, each once. Building them costs O(the awake bodies'
/// joints + joints / 64): each awake body marks its joints in a bitmap through per-body joint lists (rebuilt
/// only when the joints change), and the bitmap is read back a word at a time.
extension PhysicsWorld {
    /// Rebuilds the per-body joint lists from `joints` and `constraintJoints` (a CSR: body `i`'s entries are
    /// `jointAdjacency[jointAdjacencyStart[i] ..< jointAdjacencyStart[i + 1]]`, each `2 · index + array`, array 0
    /// for `joints` and 1 for `constraintJoints`). O(bodies + joints), when the joints change.
    mutating func rebuildJointAdjacency() {
        let n = bodies.count
        jointAdjacencyStart.removeAll(keepingCapacity: true)
        jointAdjacencyStart.append(contentsOf: repeatElement(0, count: n + 1))
        func bodiesOf(_ a: Int32, _ b: Int32, _ count: (Int) -> Void) {
            if a >= 0 && Int(a) < n { count(Int(a)) }
            if b >= 0 && Int(b) < n && b != a { count(Int(b)) }
        }
        for j in joints { bodiesOf(j.bodyA, j.bodyB) { jointAdjacencyStart[$0 + 1] += 1 } }
        for j in constraintJoints { bodiesOf(j.bodyA, j.bodyB) { jointAdjacencyStart[$0 + 1] += 1 } }
        for i in 0..<n { jointAdjacencyStart[i + 1] += jointAdjacencyStart[i] }
        jointAdjacency.removeAll(keepingCapacity: true)
        jointAdjacency.append(contentsOf: repeatElement(0, count: Int(jointAdjacencyStart[n])))
        var fill = jointAdjacencyStart
        for (k, j) in joints.enumerated() {
            bodiesOf(j.bodyA, j.bodyB) { jointAdjacency[Int(fill[$0])] = Int32(2 * k); fill[$0] += 1 }
        }
        for (k, j) in constraintJoints.enumerated() {
            bodiesOf(j.bodyA, j.bodyB) { jointAdjacency[Int(fill[$0])] = Int32(2 * k + 1); fill[$0] += 1 }
        }
        jointAdjacencyShape = JointCounts(bodies: n, joints: joints.count, constraintJoints: constraintJoints.count)
        let words = (max(joints.count, constraintJoints.count) + 63) / 64
        jointMarks = Array(repeating: 0, count: words)
        constraintJointMarks = Array(repeating: 0, count: words)
    }

    /// Lists the joints with an awake body into `awakeJointIDs` and `awakeConstraintJointIDs`, ascending.
    mutating func buildAwakeJoints() {
        let shape = JointCounts(bodies: bodies.count, joints: joints.count, constraintJoints: constraintJoints.count)
        // The animator rebuilds the joints (and so these lists) after every change; this only guards a world
        // whose joints were set without it.
        if shape != jointAdjacencyShape { rebuildJointAdjacency() }
        awakeJointIDs.removeAll(keepingCapacity: true)
        awakeConstraintJointIDs.removeAll(keepingCapacity: true)
        guard !jointAdjacency.isEmpty else { return }
        for i in awakeBodies {
            for e in jointAdjacencyStart[Int(i)]..<jointAdjacencyStart[Int(i) + 1] {
                let entry = Int(jointAdjacency[Int(e)]), k = entry >> 1
                if entry & 1 == 0 {
                    jointMarks[k >> 6] |= 1 << UInt64(k & 63)
                } else {
                    constraintJointMarks[k >> 6] |= 1 << UInt64(k & 63)
                }
            }
        }
        Self.drain(&jointMarks, into: &awakeJointIDs)
        Self.drain(&constraintJointMarks, into: &awakeConstraintJointIDs)
    }

    /// Appends the set bits' positions in ascending order and clears them.
    private static func drain(_ marks: inout [UInt64], into ids: inout [Int32]) {
        for w in 0..<marks.count where marks[w] != 0 {
            var bits = marks[w]
            while bits != 0 {
                ids.append(Int32(w << 6 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
            marks[w] = 0
        }
    }
}

/// The sizes the per-body joint lists were built for.
struct JointCounts: Equatable {
    var bodies = 0
    var joints = 0
    var constraintJoints = 0
}
