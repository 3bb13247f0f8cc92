import Testing

/// The root of every end-to-end suite. Serialized so that only one real server runs at a time: the suites
/// share two cores with builds, and the rate and backpressure checks must not compete with each other.
/// Suites join it with `extension EndToEnd { @Suite(.serialized) struct ... }`.
@Suite(.serialized)
enum EndToEnd {}
