/// UIDynamicAnimator over a reference rectangle `width × height` (points, y down): owns the items and the
/// behaviors (value types, addressed by id) and steps them at a fixed rate of `stepHz`.
///
/// Guarantees: ids are assigned from 1 and never reused (separate counters for items and behaviors, kept by
/// `removeAll()`); every input is validated (`DynamicsError.invalidValue`), so no position or velocity ever
/// becomes NaN or infinite; stepping the same sequence of calls is bit-identical on every run (no Set or
/// Dictionary iteration anywhere); a steady-state `step()` allocates nothing. When every item is at rest the
/// animator pauses (`isRunning == false`, `onRunningChange(false)`); any mutation resumes it.
/// Not thread-safe: use it from one thread (the server's loop).
public final class DynamicAnimator {
    public let width: Double
    public let height: Double
    public let stepHz: Double
    /// Simulated time, advanced only by steps taken while running.
    public internal(set) var elapsedTime: Double = 0
    /// Steps simulated while running.
    public internal(set) var stepCount = 0
    /// false = paused because every item is at rest (or there are none).
    public private(set) var isRunning = false
    /// Called with false when the animator pauses and true when it resumes.
    public var onRunningChange: ((Bool) -> Void)?
    /// true (default): items at rest fall asleep and the animator pauses when all are. false keeps every item
    /// simulated (benchmarks use it to time a fully awake world).
    public var sleepingEnabled: Bool {
        get { world.sleepingEnabled }
        set {
            world.sleepingEnabled = newValue
            if !newValue { wake() }
        }
    }

    /// nil (default): only sleep pauses the animator. A distance in points: the animator also pauses when
    /// every awake item has left the reference rectangle by more than this and is not coming back
    /// (DynamicAnimator+Departed.swift); the shared world of a room sets it (docs/ENGINE.md, "Departed items").
    public var departedMargin: Double?

    /// Called as each stage of `step()` begins, in `StepStage` order, every stage every step (a paused
    /// animator takes no step, so nothing is called). For profiling (`dynbench physics --stages`): the time
    /// between two calls, and from the last one to `step()` returning, is the earlier stage's. nil (default)
    /// costs one branch per stage.
    public var onStepStage: ((StepStage) -> Void)? {
        get { world.stageObserver }
        set { world.stageObserver = newValue }
    }

    /// The worker threads this animator's steps split their parallel stages over (docs/ENGINE.md, "Parallel
    /// step"); nil (default): every step runs on the calling thread. A world with fewer than a few hundred awake
    /// bodies steps on the calling thread anyway. The results are bit-identical for any number of workers, so
    /// this may change between any two steps; one set may serve many animators (a call that finds the set
    /// busy runs on its own thread).
    public var workers: StepWorkers? {
        get { world.workers }
        set { world.workers = newValue }
    }

    var world: PhysicsWorld
    var nextItemID = 1
    var nextBehaviorID = 1
    var indexOf: [ItemID: Int] = [:]
    var behaviors: [StoredBehavior] = []
    var behaviorIndex: [BehaviorID: Int] = [:]
    /// Fields, in insertion order (DynamicAnimator+Fields.swift).
    var fields: [(id: BehaviorID, field: FieldBehavior)] = []
    /// Fixed, sliding and pin attachments (DynamicAnimator+JointAttachments.swift).
    var jointAttachments: [JointAttachmentEntry] = []
    var constraintJointsDirty = false
    /// Item groups (DynamicAnimator+Groups.swift).
    var groups: [GroupEntry] = [] { didSet { groupLookupDirty = true } }
    /// Group index by the members' body group tag, and the last rigidity pass that projected each group
    /// (DynamicAnimator+GroupRigidity.swift); rebuilt after the groups change.
    var groupLookup: [Int32: Int] = [:]
    var groupProjected: [UInt32] = []
    var groupPass: UInt32 = 0
    var groupLookupDirty = false
    /// Per-body gravity, collision masks and joints must be rebuilt before the next step.
    var derivedDirty = true
    var segmentsDirty = true
    var jointsDirty = true
    /// Instantaneous pushes fired since the last step, applied (all of them, summed) at the next one.
    var pendingImpulses: [PendingImpulse] = []

    public init(width: Double, height: Double, stepHz: Double = 60) {
        precondition(width.isFinite && width > 0 && height.isFinite && height > 0, "world size must be positive")
        precondition(stepHz.isFinite && stepHz > 0, "stepHz must be positive")
        self.width = width
        self.height = height
        self.stepHz = stepHz
        self.world = PhysicsWorld(stepHz: stepHz)
    }

    /// Advances the world by one fixed step of 1/stepHz; returns at once while paused.
    public func step() {
        guard isRunning else { return }
        world.stageObserver?(.behaviors)
        rebuildDerivedIfNeeded()
        rebuildConstraintJointsIfNeeded()
        applyPushes()
        applyFields()
        world.step()
        world.stageObserver?(.groups)
        keepGroupsRigid()
        elapsedTime += world.dt
        stepCount += 1
        if world.awakeCount == 0 { setRunning(false) }
        else if let m = departedMargin, everyAwakeItemDeparted(margin: m) { setRunning(false) }
    }

    /// Wakes every item and resumes stepping.
    public func wake() {
        world.wakeAll()
        setRunning(true)
    }

    func setRunning(_ running: Bool) {
        guard running != isRunning else { return }
        isRunning = running
        onRunningChange?(running)
    }

    /// Marks a change: wakes body `index` (if any) and resumes.
    func touched(_ index: Int?) {
        if let i = index, !world.bodies[i].isStatic { world.wake(i) }
        setRunning(true)
    }

    /// Wakes body `i` and every body in contact with it (for changes that move or remove a body).
    func wakeNeighbours(of i: Int) {
        for id in world.contactIDs(ofBody: i) {
            let c = world.contacts[Int(id)]
            for b in [c.bodyA, c.bodyB] where b >= 0 && !world.bodies[Int(b)].isStatic { world.wake(Int(b)) }
        }
        touched(i)
    }

    func index(_ id: ItemID) throws(DynamicsError) -> Int {
        guard let i = indexOf[id] else { throw .unknownItem(id) }
        return i
    }

    /// Contact began/ended events since the last call, in the order they happened.
    public func takeContactEvents() -> [ContactEvent] {
        if world.events.isEmpty { return [] }
        var e: [ContactEvent] = []
        swap(&e, &world.events)
        return e
    }
}
