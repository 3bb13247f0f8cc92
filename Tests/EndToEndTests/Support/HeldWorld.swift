import Foundation
import NetProtocol
import Testing

/// Conveniences for tests that run a held world (`dynserver --held`, docs/PROTOCOL.md `pause`/`step`):
/// nothing moves between steps, so every number read back is exact and independent of the machine's speed.
extension LineClient {
    /// Sends `step ticks` and returns the snapshot that step sent to everyone.
    ///
    /// That is the last held snapshot before the step's `ack` (docs/PROTOCOL.md, `step`: the snapshot comes
    /// first), so a held snapshot that an earlier structural change sent is never taken for it. Nil when the
    /// step is refused or no ack comes within 20 s.
    func step(_ ticks: Int, id: Int) throws -> Snapshot? {
        let echo = MessageID.number(String(id))
        try send(ClientMessage(id: echo, .step(ticks: ticks)))
        let deadline = Date().addingTimeInterval(20)
        var last: Snapshot?
        while let message = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            switch message {
            case let .snapshot(snapshot) where snapshot.held: last = snapshot
            case let .ack(answered, _) where answered == echo: return last
            case let .error(error) where error.id == echo: return nil
            default: break
            }
        }
        return nil
    }

    /// Sends `step ticks` and returns the raw line of the snapshot it produced.
    func stepLine(_ ticks: Int, id: Int) throws -> String? {
        try stepLines(ticks, id: id).last
    }

    /// Sends `step ticks` and returns every line read up to and including the snapshot it produced.
    func stepLines(_ ticks: Int, id: Int) throws -> [String] {
        try send(ClientMessage(id: .number(String(id)), .step(ticks: ticks)))
        let deadline = Date().addingTimeInterval(20)
        var lines: [String] = []
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            lines.append(line)
            if line.hasPrefix(#"{"type":"snapshot""#) { return lines }
        }
        return []
    }

    /// The next `contact` message.
    func nextContact(timeout: Double = 10) -> ContactReport? {
        guard case let .contact(report)? = waitFor(timeout: timeout, { if case .contact = $0 { true } else { false } }) else {
            return nil
        }
        return report
    }

    /// The next `notice` message.
    func nextNotice(timeout: Double = 10) -> Notice? {
        guard case let .notice(notice)? = waitFor(timeout: timeout, { if case .notice = $0 { true } else { false } }) else {
            return nil
        }
        return notice
    }
}

extension BodyState {
    /// A point given in the body's frame, in world coordinates.
    func world(_ offset: Point) -> Point {
        let c = cos(angle), s = sin(angle)
        return Point(x + c * offset.x - s * offset.y, y + s * offset.x + c * offset.y)
    }
}

func distance(_ a: Point, _ b: Point) -> Double { hypot(a.x - b.x, a.y - b.y) }
