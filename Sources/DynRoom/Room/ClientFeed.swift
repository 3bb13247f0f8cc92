import NetProtocol

/// What one connection has been sent of the world's state: when its last snapshot was due (its own
/// `snapshot_hz`), and for compact and packed frames the baseline it really holds (docs/PROTOCOL.md, the
/// baseline rule).
///
/// Guarantees: `baseline` is the last frame handed to the kernel for this connection, never one that a newer
/// latest-only write replaced while it was still queued; after `needKeyframe` (a `scene`, a change of
/// subscription, a new connection) the baseline is nil until a keyframe has gone out.
package struct ClientFeed {
    private var lastIndex: UInt64?
    /// The tick of the last snapshot this connection's rate let through.
    private var lastTick: UInt64?
    /// The last frame handed to the transport (it may still wait in the latest-only slot).
    private var sent: PoseTable?
    /// The last frame known to have left the queue: what the client holds once it read everything.
    private var confirmed: PoseTable?
    /// The same for packed frames: the last table handed over and the baseline it was encoded against
    /// (the client's previous table once it decoded it, which packed frames predict from).
    private var packedSent: (table: PackedTable, base: PackedTable?)?
    private var packedConfirmed: (table: PackedTable, base: PackedTable?)?

    /// True when this connection's own rate makes a snapshot due at `tick`; `force` (pause and keep-alive
    /// snapshots) makes it due whatever the rate. `hz` nil means the server's snapshot rate, which the
    /// server's schedule already applies.
    package mutating func isDue(tick: UInt64, hz: Double?, tickHz: Double, force: Bool) -> Bool {
        guard let hz else { return true }
        let index = UInt64(Double(tick) * hz / tickHz)
        if !force {
            guard index != lastIndex else { return false }
            // A room that ran several ticks in one job delivers once, at its last tick: a snapshot that went
            // out a tick late must not bring the next one closer than the rate allows.
            // (A clock taken back by a restore starts the spacing afresh.)
            if let lastTick, tick > lastTick, Double(tick - lastTick) < (tickHz / hz).rounded(.down) { return false }
        }
        lastIndex = index
        lastTick = tick
        return true
    }

    /// The table the next frame must be relative to. `latestStillQueued`: the transport still holds an
    /// unsent latest-only write, which the next one replaces, so the client never gets it.
    package mutating func baseline(latestStillQueued: Bool) -> PoseTable? {
        if !latestStillQueued, let sent { confirmed = sent }
        return confirmed
    }

    /// Records the frame just written.
    package mutating func handedOver(_ table: PoseTable) { sent = table }

    /// Takes in what the transport says now (loop thread, before a job encodes the next frame): a frame that
    /// left the queue is what the client holds.
    package mutating func settle(latestStillQueued: Bool) {
        guard !latestStillQueued else { return }
        if let sent { confirmed = sent }
        if let packedSent { packedConfirmed = packedSent }
    }

    /// The tables a frame encoded now may have to be relative to when it is written later: the one the
    /// client holds, and the one still queued, which is the baseline instead if it leaves before the write.
    package func candidateBaselines() -> [PoseTable?] {
        guard let sent, sent !== confirmed else { return [confirmed] }
        return [confirmed, sent]
    }

    /// The same for packed frames: the baseline and its previous table as held now, and as held once the
    /// queued frame left (nil when none is queued).
    func packedCandidates() -> (held: (base: PackedTable?, previous: PackedTable?),
                                queued: (base: PackedTable?, previous: PackedTable?)?) {
        let held = (base: packedConfirmed?.table, previous: packedConfirmed?.base)
        guard let packedSent, packedSent.table !== packedConfirmed?.table else { return (held, nil) }
        return (held, (packedSent.table, packedSent.base))
    }

    /// The tables the next packed frame must be relative to: the baseline the client holds and the one that
    /// baseline was decoded against (docs/PROTOCOL.md, "packed"); the same rule as `baseline`.
    mutating func packedBaseline(latestStillQueued: Bool) -> (base: PackedTable?, previous: PackedTable?) {
        if !latestStillQueued, let packedSent { packedConfirmed = packedSent }
        return (packedConfirmed?.table, packedConfirmed?.base)
    }

    /// Records the packed frame just written: `table`, encoded against `base` (nil for a keyframe).
    mutating func handedOver(packed table: PackedTable, base: PackedTable?) { packedSent = (table, base) }

    /// The next frame is a keyframe.
    package mutating func needKeyframe() {
        sent = nil
        confirmed = nil
        packedSent = nil
        packedConfirmed = nil
    }
}
