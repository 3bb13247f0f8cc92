/// One fleet room's lifecycle on this server, as one explicit state machine (docs/ARCHITECTURE.md, The
/// room lifecycle in a fleet). ClusterDirectory keeps exactly one per room name in one table and changes it
/// only through the transitions below; everything this server knows about a fleet room (the joins waiting
/// for its claim, what the claim read from Redis, its epoch and deadline, an unconfirmed save) lives here:
///
///     (none) --claim sent--> claiming --claimed(epoch)--> live --deadline passed--> fenced
///     claiming --refused: owned elsewhere / late / resuming / Redis lost--> gone
///     live|fenced --renewed(same epoch)--> live (or fenced, when the confirmed renewal was sent too long ago)
///     live|fenced --lost: epoch moved on (claimed elsewhere)--> gone   (dropped unsaved, members redirected)
///     live|fenced --release: unload / drain / shutdown / a join that did not load it--> releasing
///     releasing --released: Redis answered, or the connection was lost--> gone
///
/// Guarantees: each transition checks its source phase and, from any other, changes nothing and returns
/// false (or nil); the epoch is set once (by the claim) and never changes; `deadlineNs` (monotonic clock) is
/// the send time of the last renewal Redis confirmed plus the lease minus the safety margin, so it passes
/// before Redis can let anyone else claim the room; past it the room is `fenced` (held: no steps, member
/// commands answered `unavailable`) until a renewal sent later is confirmed under the same epoch.
struct RoomLifecycle {
    enum Phase: String, Equatable, Sendable {
        case claiming, live, fenced, releasing, gone
    }

    /// How a claim ended, for each join that waited for it.
    enum ClaimOutcome: Equatable {
        case claimed
        case ownedElsewhere(String)
        case unavailable(String)
    }

    typealias Waiter = (ClaimOutcome) -> Void

    /// What a claim read from Redis for the room: its saved state and token (both nil for a new room).
    struct Restore: Equatable {
        var state: [UInt8]?
        var token: String?
    }

    private(set) var phase: Phase = .claiming
    /// The epoch Redis gave this server's claim (nil while claiming).
    private(set) var epoch: String?
    private(set) var deadlineNs: UInt64 = 0
    /// While claiming: every join waiting for the answer, in the order they asked.
    private(set) var waiters: [Waiter] = []
    /// From the claim until the room loads here: what the claim read (nil once taken, or never claimed).
    private(set) var restore: Restore?
    /// A save that Redis has not confirmed (refused, failed or lost): the next round saves again.
    var saveDirty = false

    /// How long before Redis' lease ends this server stops acting on a room: covers clock-rate drift and
    /// the time a renewal spends on its way to Redis.
    static let leaseMs: UInt64 = 5000
    static let marginMs: UInt64 = 1000
    static var heldAfterNs: UInt64 { (leaseMs - marginMs) * 1_000_000 }

    /// (none) → claiming: a claim was sent for a join.
    init(claimFor waiter: @escaping Waiter) {
        waiters = [waiter]
    }

    /// claiming: another join of the same room waits for the claim already sent.
    mutating func wait(_ waiter: @escaping Waiter) -> Bool {
        guard phase == .claiming else { return false }
        waiters.append(waiter)
        return true
    }

    /// claiming → live: Redis gave this server epoch `epoch` for a claim sent at `sentNs`, with the room's
    /// saved state and token. Returns the joins to answer `claimed` (nil: not claiming, nothing changed).
    mutating func claimed(epoch: String, sentNs: UInt64, restore read: Restore) -> [Waiter]? {
        guard phase == .claiming else { return nil }
        self.epoch = epoch
        phase = .live
        deadlineNs = sentNs + Self.heldAfterNs
        restore = read
        return takeWaiters()
    }

    /// claiming → gone: owned elsewhere, refused (late, resuming), or the connection to Redis was lost.
    /// Returns the joins to answer (nil: not claiming, nothing changed).
    mutating func refused() -> [Waiter]? {
        guard phase == .claiming else { return nil }
        phase = .gone
        return takeWaiters()
    }

    /// live: the room loads here; hands over what the claim read, once.
    mutating func load() -> Restore? {
        guard phase == .live else { return nil }
        defer { restore = nil }
        return restore
    }

    /// Whether the claim's room is still to be loaded (the join that took the lease has not loaded it yet).
    var awaitsLoad: Bool { restore != nil }

    /// live|fenced → live: a renewal sent at `sentNs` was confirmed under this epoch. A confirmation of a
    /// renewal sent too long ago leaves the deadline past (the room stays, or becomes, fenced).
    mutating func renewed(sentNs: UInt64, nowNs: UInt64) -> Bool {
        guard phase == .live || phase == .fenced else { return false }
        deadlineNs = max(deadlineNs, sentNs + Self.heldAfterNs)
        phase = nowNs < deadlineNs ? .live : .fenced
        return true
    }

    /// live → fenced once the deadline has passed; true when this call made the change.
    mutating func checkDeadline(nowNs: UInt64) -> Bool {
        guard phase == .live, nowNs >= deadlineNs else { return false }
        phase = .fenced
        return true
    }

    /// live|fenced → gone: Redis answered a renewal with another owner or a moved-on epoch.
    mutating func lost() -> Bool {
        guard phase == .live || phase == .fenced else { return false }
        phase = .gone
        restore = nil
        return true
    }

    /// live|fenced → releasing: unload, drain, shutdown, or a join that took the lease but did not load it.
    mutating func release() -> Bool {
        guard phase == .live || phase == .fenced else { return false }
        phase = .releasing
        restore = nil
        return true
    }

    /// releasing → gone: Redis answered the release (or the connection closed, and the lease lapses alone).
    mutating func released() -> Bool {
        guard phase == .releasing else { return false }
        phase = .gone
        return true
    }

    /// Whether the room may step and take commands (held otherwise).
    var isActive: Bool { phase == .live }

    /// Whether this server holds the room's lease (renews it, saves under it).
    var holdsLease: Bool { phase == .live || phase == .fenced }

    /// Whether the room is held now for want of a confirmed renewal, counting a deadline that passed since
    /// the last check (dyn_fleet_rooms_fenced).
    func isFenced(nowNs: UInt64) -> Bool { phase == .fenced || (phase == .live && nowNs >= deadlineNs) }

    private mutating func takeWaiters() -> [Waiter] {
        defer { waiters = [] }
        return waiters
    }
}
