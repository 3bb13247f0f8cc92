import NetProtocol

/// Snapshots, compact frames and packed frames (docs/PROTOCOL.md, `snapshot`, `frame`, "packed") in two
/// halves, so that the encoding can run on a worker with the step (docs/ARCHITECTURE.md, Rooms and threads):
/// `makeSnapshotBatch` decides who is due and encodes, touching only the room (its `feeds`, never a seat);
/// `deliver` (loop thread) picks each connection's bytes by the baseline it really holds and writes them.
extension Room {
    /// A member that takes snapshots, as the loop saw it before a job: a worker reads this, never the seat's
    /// subscription or closing flag (the loop may change those at any time).
    package struct SnapshotMember {
        package let seat: Seat
        package let mode: Subscription.Snapshots
        package let hz: Double?
        /// A packed member's transport takes binary messages (WebSocket); otherwise it gets `packed` lines.
        package var binary = false
    }

    /// The members that take snapshots now (loop thread), with their transport's queue settled into their
    /// feeds: a frame still queued for a member is the only reason its next frame has two possible baselines.
    package func snapshotMembers() -> [SnapshotMember] {
        var members: [SnapshotMember] = []
        for seat in receivers where seat.subscription.snapshots != .off {
            let mode = seat.subscription.snapshots
            if mode != .full { feeds[seat.id, default: ClientFeed()].settle(latestStillQueued: front.latestStillQueued(client: seat.id)) }
            members.append(SnapshotMember(seat: seat, mode: mode, hz: seat.subscription.snapshotHz,
                                          binary: mode == .packed && front.takesBinaryFrames(client: seat.id)))
        }
        return members
    }

    /// Decides which of `members` are due and encodes their snapshot once per distinct baseline (worker or
    /// loop thread: touches the room only, its `feeds` included). `full`: the full snapshot when already
    /// encoded. Pause and keep-alive snapshots and a held world's go to every member whatever its rate;
    /// `outOfSchedule` (a join's state) sends to every member without counting as its scheduled snapshot.
    package func makeSnapshotBatch(paused: Bool, members: [SnapshotMember], clients: Int, full given: SharedBytes? = nil,
                                   outOfSchedule: Bool = false) -> SnapshotBatch {
        var batch = SnapshotBatch(paused: paused, full: given)
        batch.held = world.held
        batch.clients = clients
        batch.time = world.time
        let forced = paused || world.held
        for member in members {
            if !outOfSchedule {
                guard feeds[member.seat.id, default: ClientFeed()].isDue(tick: tick, hz: member.hz, tickHz: config.tickHz, force: forced) else { continue }
            }
            switch member.mode {
            case .full: batch.fullSeats.append(member.seat)
            case .compact: batch.compactSeats.append(member.seat)
            case .packed: batch.packedSeats.append(PackedSeat(seat: member.seat, binary: member.binary))
            case .off: break
            }
        }
        guard !batch.fullSeats.isEmpty || !batch.compactSeats.isEmpty || !batch.packedSeats.isEmpty else { return batch }
        world.fillStates(&states)
        batch.drags = world.dragInfos()
        // Each mode's encoding in this thread's CPU time (dyn_snapshot_encode_seconds_total).
        if !batch.fullSeats.isEmpty, batch.full == nil {
            let start = ThreadCPUClock.nanoseconds
            batch.full = encodeSnapshotFromStates(paused: paused, clients: clients)
            batch.encodeNs.full += ThreadCPUClock.nanoseconds &- start
        }
        if !batch.compactSeats.isEmpty {
            let start = ThreadCPUClock.nanoseconds
            encodeCompact(into: &batch, clients: clients)
            batch.encodeNs.compact += ThreadCPUClock.nanoseconds &- start
        }
        if !batch.packedSeats.isEmpty {
            let start = ThreadCPUClock.nanoseconds
            encodePacked(into: &batch, clients: clients)
            batch.encodeNs.packed += ThreadCPUClock.nanoseconds &- start
        }
        return batch
    }

    /// Compact frames of `states`, one per distinct baseline a due member may hold when the frame is written.
    private func encodeCompact(into batch: inout SnapshotBatch, clients: Int) {
        let current = states.withUnsafeBufferPointer { PoseTable(tick: tick, bodies: $0) }
        batch.compactCurrent = current
        for seat in batch.compactSeats {
            for base in (feeds[seat.id] ?? ClientFeed()).candidateBaselines() {
                let key = base.map(ObjectIdentifier.init)
                guard batch.compactFrames[key] == nil else { continue }
                batch.compactFrames[key] = FrameEncoder.encode(current, base: base, time: batch.time, paused: batch.paused,
                                                               held: batch.held, clients: clients, drags: batch.drags)
            }
        }
    }

    /// Packed frames of `states`, one per distinct pair of baseline and previous table a due member may hold
    /// when the frame is written, in the shapes the due members' transports take. The tick is quantized once
    /// into a table of the room's `packedEncoder`; each member keeps the frame chosen for each pair it may
    /// hold, so `deliver` only picks one.
    private func encodePacked(into batch: inout SnapshotBatch, clients: Int) {
        let current = states.withUnsafeBufferPointer { packedEncoder.table(tick: tick, time: batch.time, bodies: $0) }
        batch.packedCurrent = current
        for entry in batch.packedSeats {
            if entry.binary { batch.packedWebSocket = true } else { batch.packedLine = true }
        }
        for i in batch.packedSeats.indices {
            let candidates = (feeds[batch.packedSeats[i].seat.id] ?? ClientFeed()).packedCandidates()
            let held = packedChoice(for: candidates.held, in: &batch)
            var queued: PackedChoice?
            if let pair = candidates.queued { queued = packedChoice(for: pair, in: &batch) }
            batch.packedSeats[i].held = held
            batch.packedSeats[i].queued = queued
        }
    }

    /// The frame for a member holding `holds`: the batch's frame against the same pair, else a new one.
    private func packedChoice(for holds: (base: PackedTable?, previous: PackedTable?), in batch: inout SnapshotBatch) -> PackedChoice {
        let current = batch.packedCurrent!
        let base = PackedEncoder.deltaBase(current, holds.base)
        let previous = base == nil ? nil : holds.previous
        let key = PackedBaselineKey(base: base, previous: previous)
        let output: PackedOutput
        if let found = batch.packedFrames.first(where: { $0.key == key }) {
            output = found.output
        } else {
            output = packedEncoder.output(current, checkedBase: base, previous: previous, paused: batch.paused, held: batch.held,
                                          clients: batch.clients, drags: batch.drags, line: batch.packedLine,
                                          webSocket: batch.packedWebSocket)
            batch.packedFrames.append((key, output))
        }
        return PackedChoice(holdsBase: holds.base, holdsPrevious: holds.previous, base: base, output: output)
    }

    /// Writes `batch` (loop thread): the full snapshot to its members, and to each compact or packed member the
    /// frame against the baseline it holds now (the rule of `ClientFeed.baseline`).
    package func deliver(_ batch: SnapshotBatch) {
        if let full = batch.full {
            for seat in batch.fullSeats {
                front.write(full, kind: .latestOnly, to: seat.id)
                front.sentSnapshot(bytes: full.count, clients: 1)
            }
        }
        if let current = batch.compactCurrent {
            var fallbackNs: UInt64 = 0
            defer { front.encodedSnapshots(.compact, seconds: Double(batch.encodeNs.compact &+ fallbackNs) / 1e9) }
            for seat in batch.compactSeats {
                let base = feeds[seat.id, default: ClientFeed()].baseline(latestStillQueued: front.latestStillQueued(client: seat.id))
                // Encoded for every baseline the member could hold, so the lookup finds it; encoded here if not.
                let bytes = batch.compactFrames[base.map(ObjectIdentifier.init)] ?? {
                    let start = ThreadCPUClock.nanoseconds
                    defer { fallbackNs &+= ThreadCPUClock.nanoseconds &- start }
                    return FrameEncoder.encode(current, base: base, time: batch.time, paused: batch.paused, held: batch.held,
                                               clients: batch.clients, drags: batch.drags)
                }()
                front.write(bytes, kind: .latestOnly, to: seat.id)
                front.sentSnapshot(bytes: bytes.count, clients: 1)
                feeds[seat.id, default: ClientFeed()].handedOver(current)
            }
        }
        if let current = batch.packedCurrent {
            var fallbackNs: UInt64 = 0
            for entry in batch.packedSeats {
                let holds = feeds[entry.seat.id, default: ClientFeed()].packedBaseline(latestStillQueued: front.latestStillQueued(client: entry.seat.id))
                let output: PackedOutput, base: PackedTable?
                if let choice = entry.held, choice.isFor(holds) {
                    (output, base) = (choice.output, choice.base)
                } else if let choice = entry.queued, choice.isFor(holds) {
                    (output, base) = (choice.output, choice.base)
                } else {
                    // Encoded for every pair the member could hold, so a choice matches; encoded here if not.
                    let start = ThreadCPUClock.nanoseconds
                    base = PackedEncoder.deltaBase(current, holds.base)
                    output = packedEncoder.output(current, checkedBase: base, previous: base == nil ? nil : holds.previous,
                                                  paused: batch.paused, held: batch.held, clients: batch.clients,
                                                  drags: batch.drags, line: !entry.binary, webSocket: entry.binary)
                    fallbackNs &+= ThreadCPUClock.nanoseconds &- start
                }
                let bytes = front.writePacked(output, kind: .latestOnly, to: entry.seat.id)
                front.sentSnapshot(bytes: bytes, clients: 1)
                feeds[entry.seat.id, default: ClientFeed()].handedOver(packed: current, base: base)
            }
            front.encodedSnapshots(.packed, seconds: Double(batch.encodeNs.packed &+ fallbackNs) / 1e9)
        }
        if batch.full != nil, !batch.fullSeats.isEmpty { front.encodedSnapshots(.full, seconds: Double(batch.encodeNs.full) / 1e9) }
    }

    /// The state a client gets at once when it joins (or asks again): by its subscription, a full snapshot,
    /// a keyframe (compact or packed), or nothing.
    package func sendState(to session: Seat) {
        let paused = !world.animator.isRunning
        switch session.subscription.snapshots {
        case .full:
            front.write(encodeSnapshot(paused: paused, clients: seats.count), kind: .latestOnly, to: session.id)
        case .compact, .packed:
            feeds[session.id, default: ClientFeed()].needKeyframe()
            let mode = session.subscription.snapshots
            let member = SnapshotMember(seat: session, mode: mode, hz: session.subscription.snapshotHz,
                                        binary: mode == .packed && front.takesBinaryFrames(client: session.id))
            deliver(makeSnapshotBatch(paused: paused, members: [member], clients: seats.count, outOfSchedule: true))
        case .off:
            break
        }
    }
}

/// One snapshot of a room, encoded for every baseline its due members may hold (`Room.makeSnapshotBatch`),
/// written by `Room.deliver`. Encoded on a worker, it waits in the room's `pending` for the loop thread.
package struct SnapshotBatch {
    package let paused: Bool
    /// What every encoding of this snapshot says besides the bodies.
    package var held = false
    package var clients = 0
    package var time = 0.0
    package var drags: [DragInfo] = []
    package var full: SharedBytes?
    package var fullSeats: [Seat] = []
    package var compactSeats: [Seat] = []
    package var compactCurrent: PoseTable?
    package var compactFrames: [ObjectIdentifier?: SharedBytes] = [:]
    package var packedSeats: [PackedSeat] = []
    package var packedCurrent: PackedTable?
    /// Every packed frame of this batch, by the pair it is encoded against (a few: a linear search).
    package var packedFrames: [(key: PackedBaselineKey, output: PackedOutput)] = []
    /// The shapes the due packed members' transports take (each frame is built in these).
    var packedLine = false
    var packedWebSocket = false
    /// Thread CPU time of each mode's encoding, in ns (dyn_snapshot_encode_seconds_total).
    package var encodeNs: (full: UInt64, compact: UInt64, packed: UInt64) = (0, 0, 0)

    init(paused: Bool, full: SharedBytes?) {
        self.paused = paused
        self.full = full
    }
}

/// A due packed member and the frame chosen for each pair of tables it may hold when its frame is written:
/// the pair it holds now, and the one it holds once its queued frame has left.
package struct PackedSeat {
    package let seat: Seat
    let binary: Bool
    var held: PackedChoice?
    var queued: PackedChoice?

    init(seat: Seat, binary: Bool) {
        self.seat = seat
        self.binary = binary
    }
}

/// The frame for one pair of tables a member may hold, and the baseline it is a delta against (nil: a
/// keyframe). It holds the pair itself, so neither table can be freed (or refilled by the pool) and another
/// take its identity before the batch is written.
struct PackedChoice {
    let holdsBase: PackedTable?
    let holdsPrevious: PackedTable?
    let base: PackedTable?
    let output: PackedOutput

    /// True when `holds` is this choice's pair (the very same tables).
    func isFor(_ holds: (base: PackedTable?, previous: PackedTable?)) -> Bool {
        holds.base === holdsBase && holds.previous === holdsPrevious
    }
}

/// Which tables a packed frame is encoded against: connections with the same key get the same bytes.
package struct PackedBaselineKey: Hashable {
    let base: ObjectIdentifier?
    let previous: ObjectIdentifier?

    init(base: PackedTable?, previous: PackedTable?) {
        self.base = base.map(ObjectIdentifier.init)
        self.previous = previous.map(ObjectIdentifier.init)
    }
}
