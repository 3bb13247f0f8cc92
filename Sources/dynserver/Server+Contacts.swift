import Dynamics
import NetProtocol

/// `contact` messages (docs/PROTOCOL.md): the engine's contact events of each step, sent to the clients that
/// subscribed with `contacts: true`, at most `maxContactsPerTick` per tick; the rest are counted and the
/// count rides in `dropped` on the next message that does go out.
extension Server {
    static let maxContactsPerTick = 256

    /// Takes the events of the step just taken (always, so they never pile up) and sends them.
    func collectContacts() {
        let events = world.animator.takeContactEvents()
        let subscribers = sessions.values.filter { $0.authorized && !$0.closing && $0.subscription.contacts }
        // The engine records events only while someone subscribes (docs/ENGINE.md, "Contact events").
        world.animator.contactEventsEnabled = !subscribers.isEmpty
        guard !events.isEmpty, !subscribers.isEmpty else { return }
        var lines: [UInt8] = []
        var sent = 0
        for event in events {
            guard sent < Server.maxContactsPerTick else {
                droppedContacts += events.count - sent
                break
            }
            var report = ContactReport(event, tick: tick)
            if droppedContacts > 0 {
                report.dropped = droppedContacts
                droppedContacts = 0
            }
            lines += ServerMessage.contact(report).encoded()
            sent += 1
        }
        let shared = SharedBytes(lines)
        for session in subscribers.sorted(by: { $0.id < $1.id }) { session.connection.write(shared) }
    }
}

extension ContactReport {
    init(_ event: ContactEvent, tick: UInt64) {
        func partner(_ p: ContactPartner) -> Partner {
            switch p {
            case .item(let id): return .body(id)
            case .boundary(let name): return .boundary(name)
            }
        }
        switch event {
        case .began(let a, let b, let point):
            self.init(phase: .began, tick: tick, a: a, partner: partner(b), point: Point(point))
        case .ended(let a, let b):
            self.init(phase: .ended, tick: tick, a: a, partner: partner(b))
        }
    }
}
