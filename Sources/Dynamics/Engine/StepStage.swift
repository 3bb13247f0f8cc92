/// The stages of one `DynamicAnimator.step()`, in the order they run: Box2D v3's solver stages
/// (`b2SolverStage`) and the stages around them, written down once so that the step, its documentation
/// (docs/ARCHITECTURE.md, "The physics step") and its profiles (`dynbench physics --stages`,
/// `make profile`) name the same things. Every stage but `behaviors` and `groups` works on the awake set only
/// (Engine/AwakeSet.swift), so sleeping bodies cost nothing.
public enum StepStage: String, CaseIterable, Sendable {
    /// The animator's per-step inputs: derived state rebuilt if a command changed it, continuous pushes, the
    /// step's summed impulses, fields.
    case behaviors
    /// The awake set in order; each awake body's world vertices and swept box, and its proxy moved in the
    /// broad phase's tree (reinserted and buffered only when it left its fat box).
    case proxies
    /// Pair finding for the buffered proxies (new persistent contacts), then the narrow phase of every contact
    /// with an awake body; touching changes link islands, wake sleeping ones and make contact events.
    case contacts
    /// The solver's lists once contacts woke what they touch: the awake set's slots, the awake joints and the
    /// awake contacts.
    case awakeLists
    /// Solver bodies loaded by slot; joints prepared; joints and contacts coloured; each contact's Float
    /// constraint written into its colour's lane chunk (or the overflow).
    case prepare
    /// The sub-steps: integrate velocities, warm start, solve with soft bias, integrate positions, relax
    /// (drags, then colour by colour the joints and the contacts, then the overflow).
    case substeps
    /// The rigid restitution passes when something bounces (limited so that a bounce adds no energy,
    /// Engine/BounceEnergy.swift), then the impulses stored back into the persistent contacts for the next step's
    /// warm start.
    case restitution
    /// Continuous collision (Engine/Continuous.swift): bodies that moved farther than the speculative window
    /// swept against boundaries and anchored items, bullets also against the other items; each stopped at its
    /// first time of impact.
    case continuous
    /// Positions and velocities written back to the bodies (speeds capped in islands pushing a deep overlap
    /// apart), the bounds guard, sleep timers, island stamps.
    case finalize
    /// The split candidate split; resting islands put to sleep whole; the awake set compacted.
    case sleep
    /// Item groups projected rigid (the animator, after the world's step).
    case groups
}
