/// One fleet room's lifecycle on this server, as one explicit state machine (docs/ARCHITECTURE.md, The
/// room lifecycle in a fleet). ClusterDirectory keeps one per room it claims and drives the registry from
/// its transitions; every path a room takes through this server is one of them:
///
///     (none) --claim sent--> claiming --claimed(epoch)--> live --deadline passed--> fenced
///     claiming --owned elsewhere / refused / Redis lost--> gone
///     live|fenced --renewed(same epoch)--> live
///     live|fenced --lost(epoch moved on: claimed elsewhere)--> gone   (dropped unsaved, members redirected)
///     live|fenced --unload / drain / shutdown--> releasing --released / Redis lost--> gone
///
/// Guarantees: the epoch is set once (by the claim) and never changes; `deadlineNs` (monotonic clock) is the
/// send time of the last renewal Redis confirmed plus the lease minus the safety margin, so it passes before
/// Redis can let anyone else claim the room; past it the room is `fenced` (held: no steps, member commands
/// answered `unavailable`) until a renewal sent later is confirmed under the same epoch.
struct RoomLifecycle: Equatable {
    enum Phase: String, Equatable {
        case claiming, live, fenced, releasing, gone
    }

    private(set) var phase: Phase = .claiming
    /// The epoch Redis gave this server's claim (nil while claiming).
    private(set) var epoch: String?
    private(set) var deadlineNs: UInt64 = 0
    /// A save that Redis has not confirmed (refused, failed or lost): the next round saves again.
    var saveDirty = false

    /// How long before Redis' lease ends this server stops acting on a room: covers clock-rate drift and
    /// the time a renewal spends on its way to Redis.
    static let leaseMs: UInt64 = 5000
    static let marginMs: UInt64 = 1000

    init() {}

    /// claiming → live: Redis gave this server epoch `epoch` for a claim sent at `sentNs`.
    mutating func claimed(epoch: String, sentNs: UInt64) {
        guard phase == .claiming else { return }
        self.epoch = epoch
        phase = .live
        deadlineNs = sentNs + (Self.leaseMs - Self.marginMs) * 1_000_000
    }

    /// live|fenced → live: a renewal sent at `sentNs` was confirmed under this epoch. A confirmation of a
    /// renewal sent too long ago leaves the deadline past (the room stays fenced).
    mutating func renewed(sentNs: UInt64, nowNs: UInt64) {
        guard phase == .live || phase == .fenced else { return }
        deadlineNs = max(deadlineNs, sentNs + (Self.leaseMs - Self.marginMs) * 1_000_000)
        phase = nowNs < deadlineNs ? .live : .fenced
    }

    /// live → fenced once the deadline has passed; true when this call made the change.
    mutating func checkDeadline(nowNs: UInt64) -> Bool {
        guard phase == .live, nowNs >= deadlineNs else { return false }
        phase = .fenced
        return true
    }

    /// live|fenced → releasing (unload, drain, shutdown).
    mutating func release() {
        guard phase == .live || phase == .fenced else { return }
        phase = .releasing
    }

    /// → gone: the claim led nowhere, the room was lost, or its release ended.
    mutating func end() { phase = .gone }

    /// Whether the room may step and take commands (held otherwise).
    var isActive: Bool { phase == .live }
}
