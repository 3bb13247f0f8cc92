import NetProtocol

/// Compact frames (docs/PROTOCOL.md, `frame`): each connection gets the newest state relative to the frame
/// it really received, and connections with the same baseline share one encoding.
extension Room {
    /// Writes a frame of `states` (filled by the caller) to each of `sessions`.
    func sendFrames(to targets: [ClientSession], paused: Bool) {
        let current = states.withUnsafeBufferPointer { PoseTable(tick: tick, bodies: $0) }
        let drags = world.dragInfos()
        let clients = members.count
        let time = world.time
        var encoded: [ObjectIdentifier?: SharedBytes] = [:]
        for session in targets {
            let base = session.feed.baseline(latestStillQueued: session.connection.hasQueuedLatestOnly)
            let key = base.map(ObjectIdentifier.init)
            let bytes: SharedBytes
            if let shared = encoded[key] {
                bytes = shared
            } else {
                bytes = FrameEncoder.encode(current, base: base, time: time, paused: paused, held: world.held, clients: clients,
                                            drags: drags)
                encoded[key] = bytes
            }
            session.connection.write(bytes, kind: .latestOnly)
            metrics.sentSnapshot(bytes: bytes.count, clients: 1)
            session.feed.handedOver(current)
        }
    }

    /// The state a client gets at once when it joins (or asks again): by its subscription, a full snapshot,
    /// a keyframe, or nothing.
    func sendState(to session: ClientSession) {
        let paused = !world.animator.isRunning
        switch session.subscription.snapshots {
        case .full:
            session.connection.write(encodeSnapshot(paused: paused, clients: members.count), kind: .latestOnly)
        case .compact:
            world.fillStates(&states)
            session.feed.needKeyframe()
            sendFrames(to: [session], paused: paused)
        case .off:
            break
        }
    }
}
