/// What a queued write may do when newer data arrives before it was handed to the kernel.
public enum WriteKind: Sendable {
    /// Must be delivered, in order (acks, errors, scenes).
    case reliable
    /// Only the newest one matters: a newer `latestOnly` write replaces one still waiting (snapshots).
    case latestOnly
}
