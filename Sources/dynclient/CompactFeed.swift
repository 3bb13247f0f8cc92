import NetProtocol

/// The client's view of world state whichever way it arrives: full snapshots pass through, compact frames
/// and packed frames are applied to the last one received (docs/PROTOCOL.md, `frame` and `packed`).
///
/// Guarantees: returns the full state of every snapshot or frame that could be applied; a frame that does
/// not fit the baseline held (which a correct server never sends) or a packed frame that does not decode
/// returns nil and sets `needsKeyframe`, so the caller can ask for a keyframe with `keyframeRequest`.
struct CompactFeed {
    private var applier = FrameApplier()
    private var packed = PackedApplier()
    private(set) var needsKeyframe = false
    /// The kind of the last frame that failed, which the keyframe request subscribes to again.
    private var failedKind: Subscription.Snapshots = .compact

    /// A new connection: no baseline yet.
    mutating func reset() {
        applier.reset()
        packed.reset()
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
                failed(.compact)
                return nil
            }
        case let .packed(_, data):
            do {
                let snapshot = try packed.apply(data)
                needsKeyframe = false
                return snapshot
            } catch {
                failed(.packed)
                return nil
            }
        default:
            return nil
        }
    }

    private mutating func failed(_ kind: Subscription.Snapshots) {
        needsKeyframe = true
        failedKind = kind
    }

    /// The `subscribe` that asks the server for a keyframe (subscribing to the same kind again resets the
    /// baseline).
    var keyframeRequest: ClientCommand { .subscribe(SubscriptionChange(snapshots: failedKind)) }
}
