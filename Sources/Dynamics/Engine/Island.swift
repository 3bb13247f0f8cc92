/// A persistent island: a group of movable bodies that touching contacts and joints between movable bodies
/// connect, directly or through each other (Box2D v3's islands; docs/ENGINE.md, "Sleeping"). Islands sleep
/// and wake whole: a sleeping island costs nothing per step, and anything that touches one of its bodies
/// wakes all of them.
///
/// Guarantees (the island invariant, kept by PhysicsWorld+Islands.swift): every movable body is in exactly
/// one island (`Body.island`, at `Body.islandIndex` in `bodies`) and static bodies are in none; two movable
/// bodies joined by a touching contact or a joint are in the same island; every body of an island is awake
/// when the island is, asleep when it is not. An island may be over-connected: losing a contact or a joint
/// only counts a pending removal, and the island is split (`PhysicsWorld.splitIsland`) when it wants to
/// sleep, so a step never pays for connectivity it does not need.
struct Island {
    /// Body indices, in the order they joined (fixed up when a body is removed from the world).
    var bodies: [Int32] = []
    /// Touching contacts and joints lost since the island was last known to be connected: > 0 means the
    /// island may have come apart and must be split before it can sleep (unless it has one body).
    var pendingRemovals = 0
    var awake = true
    /// The island's position in `PhysicsWorld.awakeIslands`, -1 while asleep (or free).
    var awakeIndex: Int32 = -1
    /// The last sleep check (`PhysicsWorld.sleepStamp`) in which a body of the island was still moving.
    var movingStamp: UInt32 = 0
    /// The last step (`PhysicsWorld.sleepStamp`) in which a body of the island was in a deep overlap
    /// (`Tuning.pushOutOverlap`): that step's velocities are capped island-wide.
    var pushStamp: UInt32 = 0
    /// false: the slot is on the free list, waiting to be reused.
    var inUse = true
}
