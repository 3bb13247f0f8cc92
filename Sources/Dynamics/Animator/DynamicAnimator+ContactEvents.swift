extension DynamicAnimator {
    /// Whether contact began/ended events are recorded (default true). A listener that takes them after
    /// every step (`takeContactEvents()`) turns this on; with nobody listening, turn it off and nothing is
    /// recorded or kept. Turning it off discards the pending events.
    public var contactEventsEnabled: Bool {
        get { world.eventsEnabled }
        set {
            world.eventsEnabled = newValue
            if !newValue { world.events.removeAll() }
        }
    }

    /// Events not recorded because one step produced more than `maxContactEventsPerStep` or the unread
    /// queue was full; counts up for the animator's life.
    public var droppedContactEvents: Int { world.droppedEvents }

    /// The most events recorded in one step.
    public static var maxContactEventsPerStep: Int { PhysicsWorld.maxEventsPerStep }
}
