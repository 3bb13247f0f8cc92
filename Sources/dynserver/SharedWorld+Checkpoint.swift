import Dynamics
import NetProtocol

/// The whole shared world kept in memory: the animator's exact state (Dynamics' `AnimatorCheckpoint`) and
/// everything the server keeps beside it (colours, the scene name, the push/snap/attachment tables, drags,
/// the palette position, hold and rest time).
///
/// Guarantees: `restore` gives back exactly the world `checkpoint` saw, so the same commands afterwards give
/// the same state hashes as they did the first time.
struct WorldCheckpoint {
    var animator: AnimatorCheckpoint
    var sceneName: String
    var colors: [ItemID: String]
    var gravityID: BehaviorID
    var collisionID: BehaviorID
    var sceneAttachments: [BehaviorID]
    var continuousPushes: [ItemID: BehaviorID]
    var instantPushes: [ItemID: BehaviorID]
    var snaps: [ItemID: BehaviorID]
    var drags: [Int: SharedWorld.Drag]
    var paletteIndex: Int
    var held: Bool
    var restTime: Double
    var attachmentKinds: [BehaviorID: AttachmentKindName]
}

extension SharedWorld {
    func checkpoint() -> WorldCheckpoint {
        WorldCheckpoint(animator: animator.checkpoint(), sceneName: sceneName, colors: colors, gravityID: gravityID,
                        collisionID: collisionID, sceneAttachments: sceneAttachments, continuousPushes: continuousPushes,
                        instantPushes: instantPushes, snaps: snaps, drags: drags, paletteIndex: paletteIndex, held: held,
                        restTime: restTime, attachmentKinds: attachmentKinds)
    }

    /// Puts `saved` back; the structure counts as changed (a fresh `scene` is due).
    func restore(_ saved: WorldCheckpoint) {
        animator.restore(saved.animator)
        sceneName = saved.sceneName
        colors = saved.colors
        gravityID = saved.gravityID
        collisionID = saved.collisionID
        sceneAttachments = saved.sceneAttachments
        continuousPushes = saved.continuousPushes
        instantPushes = saved.instantPushes
        snaps = saved.snaps
        drags = saved.drags
        paletteIndex = saved.paletteIndex
        held = saved.held
        restTime = saved.restTime
        attachmentKinds = saved.attachmentKinds
        structureChanged = true
    }

    /// The hash of docs/PROTOCOL.md's `hash`: the animator's state hash plus the server's clock beside it
    /// (`tick`, hold and the time of held steps at rest). Allocation-free.
    func stateHash(tick: UInt64) -> UInt64 {
        var h = StateHasher()
        h.mix(animator.stateHash())
        h.mix(tick)
        h.mix(held)
        h.mix(restTime)
        return h.value
    }
}
