/// Open-addressing hash map from a pair of broad-phase proxy keys to a contact id (Box2D's pair set): the
/// broad phase asks it whether a pair already has a contact, and a contact's destruction removes its entry.
/// Linear probing with backward-shift deletion (no tombstones), so lookups stay short however many contacts
/// come and go; it grows (doubling) only when half full, so a steady state allocates nothing. It is never
/// iterated, so it cannot affect determinism.
struct PairMap {
    private var keys: [UInt64] = []
    /// Contact id per slot, -1 for an empty slot.
    private var values: [Int32] = []
    private var mask = -1
    private(set) var count = 0

    /// The map key of an unordered pair of proxy keys.
    @inline(__always) static func key(_ a: Int32, _ b: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: min(a, b))) << 32 | UInt64(UInt32(bitPattern: max(a, b)))
    }

    @inline(__always) private func slot(_ k: UInt64) -> Int {
        var h = k &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 31
        return Int(truncatingIfNeeded: h) & mask
    }

    /// The contact id stored for `k`, or -1.
    func find(_ k: UInt64) -> Int32 {
        if count == 0 { return -1 }
        var s = slot(k)
        while values[s] >= 0 {
            if keys[s] == k { return values[s] }
            s = (s + 1) & mask
        }
        return -1
    }

    /// Stores `value` for `k`, which must not be present.
    mutating func insert(_ k: UInt64, _ value: Int32) {
        if 2 * (count + 1) > values.count { grow() }
        var s = slot(k)
        while values[s] >= 0 { s = (s + 1) & mask }
        keys[s] = k
        values[s] = value
        count += 1
    }

    /// Removes `k` if present, shifting later entries of its probe run back so that no lookup breaks.
    mutating func remove(_ k: UInt64) {
        if count == 0 { return }
        var i = slot(k)
        while values[i] >= 0 && keys[i] != k { i = (i + 1) & mask }
        guard values[i] >= 0 else { return }
        count -= 1
        while true {
            values[i] = -1
            var j = i
            var home = 0
            repeat {
                j = (j + 1) & mask
                if values[j] < 0 { return }
                home = slot(keys[j])
                // The entry at j may stay only if its home lies cyclically in (i, j].
            } while i <= j ? (i < home && home <= j) : (i < home || home <= j)
            keys[i] = keys[j]
            values[i] = values[j]
            i = j
        }
    }

    mutating func removeAll() {
        for s in 0..<values.count { values[s] = -1 }
        count = 0
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        let size = max(16, 2 * values.count)
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: -1, count: size)
        mask = size - 1
        count = 0
        for s in 0..<oldValues.count where oldValues[s] >= 0 { insert(oldKeys[s], oldValues[s]) }
    }
}
