/// A whole animator kept in memory (docs/PROTOCOL.md, "checkpoint" and "restore").
///
/// Guarantees: `restore(_:)` puts back every value the next steps depend on, bit for bit — items, behaviors,
/// contacts with their warm-start impulses, joints, islands and sleep timers, the broad phase, the clock and
/// the id counters — so that the same calls after a restore give the same `stateHash()` values as they did
/// after the checkpoint was taken. It is cheap: the engine's state is value types (arrays), copied on write.
/// What belongs to the host rather than the state is left as it is: the running-change callback, the stage
/// observer and whether contact events are recorded; contact events not yet taken are dropped.
public struct AnimatorCheckpoint {
    fileprivate var world: PhysicsWorld
    fileprivate var elapsedTime: Double
    fileprivate var stepCount: Int
    fileprivate var isRunning: Bool
    fileprivate var nextItemID: Int
    fileprivate var nextBehaviorID: Int
    fileprivate var indexOf: [ItemID: Int]
    fileprivate var behaviors: [StoredBehavior]
    fileprivate var behaviorIndex: [BehaviorID: Int]
    fileprivate var fields: [(id: BehaviorID, field: FieldBehavior)]
    fileprivate var jointAttachments: [JointAttachmentEntry]
    fileprivate var constraintJointsDirty: Bool
    fileprivate var groups: [GroupEntry]
    fileprivate var groupLookup: [Int32: Int]
    fileprivate var groupProjected: [UInt32]
    fileprivate var groupPass: UInt32
    fileprivate var groupLookupDirty: Bool
    fileprivate var derivedDirty: Bool
    fileprivate var segmentsDirty: Bool
    fileprivate var jointsDirty: Bool
    fileprivate var pendingImpulses: [PendingImpulse]
}

extension DynamicAnimator {
    /// The whole state now.
    public func checkpoint() -> AnimatorCheckpoint {
        var copy = world
        copy.events = []
        copy.stageObserver = nil
        return AnimatorCheckpoint(
            world: copy, elapsedTime: elapsedTime, stepCount: stepCount, isRunning: isRunning, nextItemID: nextItemID,
            nextBehaviorID: nextBehaviorID, indexOf: indexOf, behaviors: behaviors, behaviorIndex: behaviorIndex,
            fields: fields, jointAttachments: jointAttachments, constraintJointsDirty: constraintJointsDirty,
            groups: groups, groupLookup: groupLookup, groupProjected: groupProjected, groupPass: groupPass,
            groupLookupDirty: groupLookupDirty, derivedDirty: derivedDirty, segmentsDirty: segmentsDirty,
            jointsDirty: jointsDirty, pendingImpulses: pendingImpulses)
    }

    /// Puts the state of `checkpoint` back (see `AnimatorCheckpoint`); `onRunningChange` is told when the
    /// running state changes.
    public func restore(_ checkpoint: AnimatorCheckpoint) {
        let observer = world.stageObserver
        let eventsEnabled = world.eventsEnabled
        let workers = world.workers
        world = checkpoint.world
        world.stageObserver = observer
        world.workers = workers
        world.eventsEnabled = eventsEnabled
        world.events = []
        elapsedTime = checkpoint.elapsedTime
        stepCount = checkpoint.stepCount
        nextItemID = checkpoint.nextItemID
        nextBehaviorID = checkpoint.nextBehaviorID
        indexOf = checkpoint.indexOf
        behaviors = checkpoint.behaviors
        behaviorIndex = checkpoint.behaviorIndex
        fields = checkpoint.fields
        jointAttachments = checkpoint.jointAttachments
        constraintJointsDirty = checkpoint.constraintJointsDirty
        groups = checkpoint.groups
        groupLookup = checkpoint.groupLookup
        groupProjected = checkpoint.groupProjected
        groupPass = checkpoint.groupPass
        // After `groups` (whose observer marks the lookup dirty): the checkpoint's own flag wins.
        groupLookupDirty = checkpoint.groupLookupDirty
        derivedDirty = checkpoint.derivedDirty
        segmentsDirty = checkpoint.segmentsDirty
        jointsDirty = checkpoint.jointsDirty
        pendingImpulses = checkpoint.pendingImpulses
        setRunning(checkpoint.isRunning)
    }
}
