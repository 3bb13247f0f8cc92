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

    /// The state a client gets at once when it joins (or asks again): by its subscription, a full snapshot,
    /// a keyframe, or nothing.
    package func sendState(to session: Seat) {
        let paused = !world.animator.isRunning
        switch session.subscription.snapshots {
        case .full:
            front.write(encodeSnapshot(paused: paused, clients: seats.count), kind: .latestOnly, to: session.id)
        case .compact:
            world.fillStates(&states)
            session.feed.needKeyframe()
            sendFrames(to: [session], paused: paused)
        case .off:
            break
        }
    }
}
