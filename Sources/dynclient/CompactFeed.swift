import NetProtocol

/// The client's view of world state whichever way it arrives: full snapshots pass through, compact frames
/// are applied to the last one received (docs/PROTOCOL.md, `frame`).
///
/// Guarantees: returns the full state of every snapshot or frame that could be applied; a frame that does
/// not fit the baseline held (which a correct server never sends) returns nil and sets `needsKeyframe`, so
/// the caller can ask for a keyframe with `subscribe`.
struct CompactFeed {
    private var applier = FrameApplier()
    private(set) var needsKeyframe = false

    /// A new connection: no baseline yet.
    mutating func reset() {
        applier.reset()
        needsKeyframe = false
    }

    mutating func snapshot(from message: ServerMessage) -> Snapshot? {
        switch message {
        case let .snapshot(snapshot):
            return snapshot
        case let .frame(frame):
            do {
                let snapshot = try applier.apply(frame)
                needsKeyframe = false
                return snapshot
            } catch {
                needsKeyframe = true
                return nil
            }
        default:
            return nil
        }
    }

    /// The `subscribe` that asks the server for a keyframe (switching to compact again resets the baseline).
    static let keyframeRequest = ClientCommand.subscribe(SubscriptionChange(snapshots: .compact))
}
