import NetProtocol

/// Compact frames (docs/PROTOCOL.md, `frame`): each connection gets the newest state relative to the frame
/// it really received, and connections with the same baseline share one encoding.
extension Room {
    /// Writes a frame of `states` (filled by the caller) to each of `sessions`.
    package func sendFrames(to targets: [Seat], paused: Bool) {
        let current = states.withUnsafeBufferPointer { PoseTable(tick: tick, bodies: $0) }
        let drags = world.dragInfos()
        let clients = seats.count
        let time = world.time
        var encoded: [ObjectIdentifier?: SharedBytes] = [:]
        for session in targets {
            let base = session.feed.baseline(latestStillQueued: front.latestStillQueued(client: session.id))
            let key = base.map(ObjectIdentifier.init)
            let bytes: SharedBytes
            if let shared = encoded[key] {
                bytes = shared
            } else {
                bytes = FrameEncoder.encode(current, base: base, time: time, paused: paused, held: world.held, clients: clients,
                                            drags: drags)
                encoded[key] = bytes
            }
            front.write(bytes, kind: .latestOnly, to: session.id)
            front.sentSnapshot(bytes: bytes.count, clients: 1)
            session.feed.handedOver(current)
        }
    }

    /// Writes a packed frame of `states` (filled by the caller) to each of `sessions` (docs/PROTOCOL.md,
    /// "packed"): encoded once per distinct pair of baseline and previous table, each shape (line, binary
    /// WebSocket frame) built once.
    package func sendPackedFrames(to targets: [Seat], paused: Bool) {
        let poses = states.withUnsafeBufferPointer { PoseTable(tick: tick, bodies: $0) }
        let current = PackedTable(poses, time: world.time)
        let drags = world.dragInfos()
        let clients = seats.count
        let held = world.held
        var encoded: [PackedBaselineKey: PackedOutput] = [:]
        // Whether each distinct baseline can carry a delta (same ids as `current`): checked once, not per client.
        var deltaBases: [ObjectIdentifier: Bool] = [:]
        for session in targets {
            let holds = session.feed.packedBaseline(latestStillQueued: front.latestStillQueued(client: session.id))
            var base: PackedTable?
            if let holding = holds.base {
                let key = ObjectIdentifier(holding)
                let usable = deltaBases[key] ?? (PackedEncoder.deltaBase(current, holding) != nil)
                deltaBases[key] = usable
                base = usable ? holding : nil
            }
            let previous = base == nil ? nil : holds.previous
            let key = PackedBaselineKey(base: base, previous: previous)
            let output: PackedOutput
            if let shared = encoded[key] {
                output = shared
            } else {
                output = PackedOutput(tick: tick, frame: PackedEncoder.encode(current, checkedBase: base, previous: previous,
                                                                              paused: paused, held: held,
                                                                              clients: clients, drags: drags))
                encoded[key] = output
            }
            let bytes = front.writePacked(output, kind: .latestOnly, to: session.id)
            front.sentSnapshot(bytes: bytes, clients: 1)
            session.feed.handedOver(packed: current, base: base)
        }
    }

    /// The state a client gets at once when it joins (or asks again): by its subscription, a full snapshot,
    /// a keyframe (compact or packed), or nothing.
    package func sendState(to session: Seat) {
        let paused = !world.animator.isRunning
        switch session.subscription.snapshots {
        case .full:
            front.write(encodeSnapshot(paused: paused, clients: seats.count), kind: .latestOnly, to: session.id)
        case .compact:
            world.fillStates(&states)
            session.feed.needKeyframe()
            sendFrames(to: [session], paused: paused)
        case .packed:
            world.fillStates(&states)
            session.feed.needKeyframe()
            sendPackedFrames(to: [session], paused: paused)
        case .off:
            break
        }
    }
}

/// Which tables a packed frame is encoded against: connections with the same key get the same bytes.
struct PackedBaselineKey: Hashable {
    let base: ObjectIdentifier?
    let previous: ObjectIdentifier?

    init(base: PackedTable?, previous: PackedTable?) {
        self.base = base.map(ObjectIdentifier.init)
        self.previous = previous.map(ObjectIdentifier.init)
    }
}
