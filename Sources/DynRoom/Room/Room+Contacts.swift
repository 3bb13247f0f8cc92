import Dynamics
import NetProtocol

/// `contact` messages (docs/PROTOCOL.md): the engine's contact events of each step, sent to the clients that
/// subscribed with `contacts: true`, at most `maxContactsPerTick` per tick; the rest are counted and the
/// count rides in `dropped` on the next message that does go out.
extension Room {
    package static let maxContactsPerTick = 256

    /// Takes the events of the step just taken (always, so they never pile up) and appends their `contact`
    /// lines to `lines`.
    package func encodeContacts(into lines: inout [UInt8]) {
        let events = world.animator.takeContactEvents()
        guard !events.isEmpty else { return }
        var sent = 0
        for event in events {
            guard sent < Room.maxContactsPerTick else {
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
    }

    /// Sends the contact events of the step just taken to the members that subscribed (a `step` command).
    package func collectContacts() {
        let subscribers = receivers.filter { $0.subscription.contacts }.sorted { $0.id < $1.id }
        world.animator.contactEventsEnabled = !subscribers.isEmpty
        guard !subscribers.isEmpty else {
            _ = world.animator.takeContactEvents()
            return
        }
        var lines: [UInt8] = []
        encodeContacts(into: &lines)
        guard !lines.isEmpty else { return }
        let shared = SharedBytes(lines)
        for session in subscribers { front.write(shared, kind: .reliable, to: session.id) }
    }
}

extension ContactReport {
    package init(_ event: ContactEvent, tick: UInt64) {
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
