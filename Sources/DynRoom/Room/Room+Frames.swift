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
    }

    /// The members that take snapshots now (loop thread), with their transport's queue settled into their
    /// feeds: a frame still queued for a member is the only reason its next frame has two possible baselines.
    package func snapshotMembers() -> [SnapshotMember] {
        var members: [SnapshotMember] = []
        for seat in receivers where seat.subscription.snapshots != .off {
            let mode = seat.subscription.snapshots
            if mode != .full { feeds[seat.id, default: ClientFeed()].settle(latestStillQueued: front.latestStillQueued(client: seat.id)) }
            members.append(SnapshotMember(seat: seat, mode: mode, hz: seat.subscription.snapshotHz))
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
            case .packed: batch.packedSeats.append(member.seat)
            case .off: break
            }
        }
        guard !batch.fullSeats.isEmpty || !batch.compactSeats.isEmpty || !batch.packedSeats.isEmpty else { return batch }
        world.fillStates(&states)
        batch.drags = world.dragInfos()
        if !batch.fullSeats.isEmpty, batch.full == nil {
            batch.full = encodeSnapshotFromStates(paused: paused, clients: clients)
        }
        if !batch.compactSeats.isEmpty { encodeCompact(into: &batch, clients: clients) }
        if !batch.packedSeats.isEmpty { encodePacked(into: &batch, clients: clients) }
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
    /// when the frame is written; each shape (line, binary WebSocket frame) is built once, on first use.
    private func encodePacked(into batch: inout SnapshotBatch, clients: Int) {
        let poses = states.withUnsafeBufferPointer { PoseTable(tick: tick, bodies: $0) }
        let current = PackedTable(poses, time: batch.time)
        batch.packedCurrent = current
        for seat in batch.packedSeats {
            for holds in (feeds[seat.id] ?? ClientFeed()).packedCandidates() {
                let base = batch.packedDeltaBase(holds.base)
                let previous = base == nil ? nil : holds.previous
                let key = PackedBaselineKey(base: base, previous: previous)
                guard batch.packedFrames[key] == nil else { continue }
                batch.packedFrames[key] = PackedOutput(tick: tick, frame: PackedEncoder.encode(
                    current, checkedBase: base, previous: previous, paused: batch.paused, held: batch.held, clients: clients,
                    drags: batch.drags))
            }
        }
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
            for seat in batch.compactSeats {
                let base = feeds[seat.id, default: ClientFeed()].baseline(latestStillQueued: front.latestStillQueued(client: seat.id))
                // Encoded for every baseline the member could hold, so the lookup finds it; encoded here if not.
                let bytes = batch.compactFrames[base.map(ObjectIdentifier.init)]
                    ?? FrameEncoder.encode(current, base: base, time: batch.time, paused: batch.paused, held: batch.held,
                                           clients: batch.clients, drags: batch.drags)
                front.write(bytes, kind: .latestOnly, to: seat.id)
                front.sentSnapshot(bytes: bytes.count, clients: 1)
                feeds[seat.id, default: ClientFeed()].handedOver(current)
            }
        }
        if let current = batch.packedCurrent {
            var batch = batch
            for seat in batch.packedSeats {
                let holds = feeds[seat.id, default: ClientFeed()].packedBaseline(latestStillQueued: front.latestStillQueued(client: seat.id))
                let base = batch.packedDeltaBase(holds.base)
                let key = PackedBaselineKey(base: base, previous: base == nil ? nil : holds.previous)
                let output = batch.packedFrames[key] ?? PackedOutput(tick: current.tick, frame: PackedEncoder.encode(
                    current, checkedBase: base, previous: base == nil ? nil : holds.previous, paused: batch.paused,
                    held: batch.held, clients: batch.clients, drags: batch.drags))
                let bytes = front.writePacked(output, kind: .latestOnly, to: seat.id)
                front.sentSnapshot(bytes: bytes, clients: 1)
                feeds[seat.id, default: ClientFeed()].handedOver(packed: current, base: base)
            }
        }
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
            let member = SnapshotMember(seat: session, mode: session.subscription.snapshots, hz: session.subscription.snapshotHz)
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
    package var packedSeats: [Seat] = []
    package var packedCurrent: PackedTable?
    package var packedFrames: [PackedBaselineKey: PackedOutput] = [:]
    /// Whether each distinct baseline can carry a delta of `packedCurrent` (the same ids): checked once per
    /// baseline, not once per member (the ids comparison reads every body).
    private var packedDeltaBases: [ObjectIdentifier: Bool] = [:]

    init(paused: Bool, full: SharedBytes?) {
        self.paused = paused
        self.full = full
    }

    /// `PackedEncoder.deltaBase(packedCurrent, holding)`, remembered per baseline.
    mutating func packedDeltaBase(_ holding: PackedTable?) -> PackedTable? {
        guard let holding, let current = packedCurrent else { return nil }
        let key = ObjectIdentifier(holding)
        if let usable = packedDeltaBases[key] { return usable ? holding : nil }
        let usable = PackedEncoder.deltaBase(current, holding) != nil
        packedDeltaBases[key] = usable
        return usable ? holding : nil
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
