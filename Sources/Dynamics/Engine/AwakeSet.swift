/// The awake set (Box2D v3's awake solver set, with our storage): `awakeBodies`, the ascending indices of the
/// awake movable bodies, and `solverSlot`, each body's index in it (its slot in the solver's state array) or
/// -1. Every per-body stage of the step iterates `awakeBodies` only, so sleeping and static bodies cost
/// nothing per step (docs/ENGINE.md, "Sleeping").
///
/// Guarantees: outside the sleep check, `awakeBodies` holds exactly the bodies with `isDynamicAwake`, each
/// once. Islands wake by appending their bodies (`awakeSetUnsorted`), bodies leave by compaction (which keeps
/// the order); `normalizeAwakeSet()` sorts and renumbers, and runs before every stage that reads slots, so
/// those stages see an ascending list with current slots. Nothing is allocated unless the set grows.
extension PhysicsWorld {
    /// The number of awake movable bodies (O(1)).
    var awakeCount: Int { awakeBodies.count }

    /// Sorts `awakeBodies` if bodies were appended and renumbers `solverSlot` if anything changed.
    mutating func normalizeAwakeSet() {
        if awakeSetUnsorted {
            awakeBodies.sort()
            awakeSetUnsorted = false
            solverSlotsStale = true
        }
        guard solverSlotsStale else { return }
        solverSlotsStale = false
        for slot in 0..<awakeBodies.count { solverSlot[Int(awakeBodies[slot])] = Int32(slot) }
    }

    /// Appends a body that was not in the set (it has just woken or been made movable).
    mutating func enterAwakeSet(_ i: Int) {
        awakeBodies.append(Int32(i))
        if awakeBodies.count > 1 && awakeBodies[awakeBodies.count - 2] > Int32(i) { awakeSetUnsorted = true }
        solverSlotsStale = true
    }

    /// Drops every body that is no longer awake and movable, keeping the order (after islands fell asleep).
    mutating func compactAwakeSet() {
        var kept = 0
        for k in 0..<awakeBodies.count {
            let i = awakeBodies[k]
            if bodies[Int(i)].isDynamicAwake {
                awakeBodies[kept] = i
                kept += 1
            } else {
                solverSlot[Int(i)] = -1
            }
        }
        awakeBodies.removeLast(awakeBodies.count - kept)
        solverSlotsStale = true
    }

    /// Takes body `i` out of the set at once (it became static or is being removed).
    mutating func leaveAwakeSet(_ i: Int) {
        if let k = awakeBodies.firstIndex(of: Int32(i)) { awakeBodies.remove(at: k) }
        solverSlot[i] = -1
        solverSlotsStale = true
    }

    /// Whether `awakeBodies` and `solverSlot` are exactly what a scan of every body gives (for tests).
    func awakeSetMatchesBodies() -> Bool {
        var expected: [Int32] = []
        for i in 0..<bodies.count where bodies[i].isDynamicAwake { expected.append(Int32(i)) }
        guard awakeBodies == expected, solverSlot.count == bodies.count else { return false }
        for i in 0..<bodies.count {
            let slot = solverSlot[i]
            if bodies[i].isDynamicAwake {
                if slot < 0 || Int(slot) >= awakeBodies.count || awakeBodies[Int(slot)] != Int32(i) { return false }
            } else if slot != -1 {
                return false
            }
        }
        return true
    }
}
