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
        guard id >= 1, behaviors.allSatisfy({ $0.id < id }) else {
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
}
