import Dynamics
import NetProtocol

/// The whole shared world kept in memory: the animator's exact state (Dynamics' `AnimatorCheckpoint`) and
/// everything the server keeps beside it (colours, the scene name, the push/snap/attachment tables, drags,
/// the palette position, hold and rest time).
///
/// Guarantees: `restore` gives back exactly the world `checkpoint` saw, so the same commands afterwards give
/// the same state hashes as they did the first time.
package struct WorldCheckpoint {
    package var animator: AnimatorCheckpoint
    package var sceneName: String
    package var colors: [ItemID: String]
    package var gravityID: BehaviorID
    package var collisionID: BehaviorID
    package var sceneAttachments: [BehaviorID]
    package var continuousPushes: [ItemID: BehaviorID]
    package var instantPushes: [ItemID: BehaviorID]
    package var snaps: [ItemID: BehaviorID]
    package var drags: [Int: SharedWorld.Drag]
    package var paletteIndex: Int
    package var held: Bool
    package var restTime: Double
    package var attachmentKinds: [BehaviorID: AttachmentKindName]
}

extension SharedWorld {
    package func checkpoint() -> WorldCheckpoint {
        WorldCheckpoint(animator: animator.checkpoint(), sceneName: sceneName, colors: colors, gravityID: gravityID,
                        collisionID: collisionID, sceneAttachments: sceneAttachments, continuousPushes: continuousPushes,
                        instantPushes: instantPushes, snaps: snaps, drags: drags, paletteIndex: paletteIndex, held: held,
                        restTime: restTime, attachmentKinds: attachmentKinds)
    }

    /// Puts `saved` back; the structure counts as changed (a fresh `scene` is due).
    package func restore(_ saved: WorldCheckpoint) {
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
    package func stateHash(tick: UInt64) -> UInt64 {
        var h = StateHasher()
        h.mix(animator.stateHash())
        h.mix(tick)
        h.mix(held)
        h.mix(restTime)
        return h.value
    }
}
