/// Rebuilding a saved world with its own ids and clock (the server's `--state`): the id counters can be
/// read and set, and the simulated time restored.
///
/// Guarantees: a counter is only ever set above every id in use, so ids stay unique and are never reused.
extension DynamicAnimator {
    /// The id the next added item will get.
    public var nextItemIDValue: ItemID { nextItemID }
    /// The id the next added behavior will get.
    public var nextBehaviorIDValue: BehaviorID { nextBehaviorID }

    /// Makes the next added item get `id`. Throws unless `id` is above every item id in use.
    public func setNextItemID(_ id: ItemID) throws(DynamicsError) {
        guard id >= 1, world.bodies.allSatisfy({ $0.id < id }) else {
            throw .invalidValue("item id \(id) is not above every item id in use")
        }
        nextItemID = id
    }

    /// Makes the next added behavior get `id`. Throws unless `id` is above every behavior id in use.
    public func setNextBehaviorID(_ id: BehaviorID) throws(DynamicsError) {
        let used = behaviors.map(\.id) + fields.map(\.id) + groups.map(\.id) + jointAttachments.map(\.id)
        guard id >= 1, used.allSatisfy({ $0 < id }) else {
            throw .invalidValue("behavior id \(id) is not above every behavior id in use")
        }
        nextBehaviorID = id
    }

    /// Sets the simulated time and step count of a restored world.
    public func restoreClock(elapsedTime: Double, stepCount: Int) throws(DynamicsError) {
        guard elapsedTime.isFinite, elapsedTime >= 0, stepCount >= 0 else { throw .invalidValue("time must be finite and >= 0") }
        self.elapsedTime = elapsedTime
        self.stepCount = stepCount
    }

    /// Puts a restored world that was saved at rest back to rest: every item asleep (as `sleepIslands` leaves
    /// them, without velocity) and the animator paused until something wakes it.
    public func restoreAtRest() {
        rebuildDerivedIfNeeded()
        world.sleepAll()
        setRunning(false)
    }

    /// The frames a fixed, sliding or pin attachment resolved when it was added (the relative pose it keeps).
    public func jointFrames(_ id: BehaviorID) -> JointFrames? {
        guard let e = jointAttachments.first(where: { $0.id == id }) else { return nil }
        return JointFrames(localA: e.localA, localB: e.localB, axisA: e.axisA, referenceAngle: e.referenceAngle)
    }

    /// Puts back the frames of a restored joint attachment, so it keeps the pose the saved one kept.
    public func restoreJointFrames(_ id: BehaviorID, _ frames: JointFrames) throws(DynamicsError) {
        guard let k = jointAttachments.firstIndex(where: { $0.id == id }) else { throw .unknownBehavior(id) }
        guard frames.localA.isFinite, frames.localB.isFinite, frames.axisA.isFinite, frames.referenceAngle.isFinite
        else { throw .invalidValue("joint frames must be finite") }
        jointAttachments[k].localA = frames.localA
        jointAttachments[k].localB = frames.localB
        jointAttachments[k].axisA = frames.axisA
        jointAttachments[k].referenceAngle = frames.referenceAngle
        jointsDirty = true
    }
}

/// A joint attachment's resolved frames: its points in each item's frame, the rail's axis, the angle kept.
public struct JointFrames: Equatable, Sendable {
    public var localA: Vec2
    public var localB: Vec2
    public var axisA: Vec2
    public var referenceAngle: Double

    public init(localA: Vec2, localB: Vec2, axisA: Vec2, referenceAngle: Double) {
        self.localA = localA
        self.localB = localB
        self.axisA = axisA
        self.referenceAngle = referenceAngle
    }
}
