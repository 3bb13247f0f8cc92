/// The connections still sending their HTTP request, and the policy that keeps the port reachable when
/// many of them are slow on purpose (a "slowloris" crowd), after nginx and HAProxy: every request has a
/// short deadline; one peer (an IP address) holds at most `perPeerLimit` places; and when a newcomer finds
/// its peer's share or the whole pool full, the *oldest* incomplete request makes room (it is evicted)
/// rather than the newcomer being refused — so a crowd of slow connections can only ever delay itself.
///
/// Guarantees: `count <= limit` and no peer holds more than `perPeerLimit` entries after every `admit`;
/// victims are chosen oldest first (by admission order), from the newcomer's own peer when that peer is at
/// its share, else from the whole pool; `expired` returns exactly the entries older than the deadline.
struct HTTPPendingPool<Entry: AnyObject> {
    private struct Place {
        let entry: Entry
        let peer: String
        let openedMs: UInt64
        let order: UInt64
    }

    let limit: Int
    let perPeerLimit: Int
    let deadlineMs: UInt64
    private var places: [ObjectIdentifier: Place] = [:]
    private var perPeer: [String: Int] = [:]
    private var nextOrder: UInt64 = 0

    init(limit: Int, perPeerLimit: Int, deadlineMs: UInt64) {
        self.limit = max(1, limit)
        self.perPeerLimit = max(1, min(perPeerLimit, limit))
        self.deadlineMs = deadlineMs
    }

    var count: Int { places.count }
    var entries: [Entry] { places.values.map(\.entry) }

    /// Adds `entry` from `peer`; returns the entries evicted to make room (already removed), oldest first.
    mutating func admit(_ entry: Entry, peer: String, nowMs: UInt64) -> [Entry] {
        var evicted: [Entry] = []
        while perPeer[peer, default: 0] >= perPeerLimit, let victim = oldest(from: peer) {
            evicted.append(victim)
            remove(victim)
        }
        while places.count >= limit, let victim = oldest(from: nil) {
            evicted.append(victim)
            remove(victim)
        }
        places[ObjectIdentifier(entry)] = Place(entry: entry, peer: peer, openedMs: nowMs, order: nextOrder)
        nextOrder += 1
        perPeer[peer, default: 0] += 1
        return evicted
    }

    /// Forgets `entry` (its request completed, failed or its connection ended); false when not held.
    @discardableResult
    mutating func remove(_ entry: Entry) -> Bool {
        guard let place = places.removeValue(forKey: ObjectIdentifier(entry)) else { return false }
        let left = perPeer[place.peer, default: 1] - 1
        perPeer[place.peer] = left > 0 ? left : nil
        return true
    }

    func contains(_ entry: Entry) -> Bool { places[ObjectIdentifier(entry)] != nil }

    /// The entries whose deadline passed at `nowMs` (still held: the caller removes them).
    func expired(nowMs: UInt64) -> [Entry] {
        places.values.filter { nowMs &- $0.openedMs > deadlineMs }.map(\.entry)
    }

    private func oldest(from peer: String?) -> Entry? {
        var best: Place?
        for place in places.values where peer == nil || place.peer == peer {
            if let current = best, current.order <= place.order { continue }
            best = place
        }
        return best?.entry
    }
}
