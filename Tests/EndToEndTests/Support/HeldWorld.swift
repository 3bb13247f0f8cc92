import Foundation
import NetProtocol
import Testing

/// Conveniences for tests that run a held world (`dynserver --held`, docs/PROTOCOL.md `pause`/`step`):
/// nothing moves between steps, so every number read back is exact and independent of the machine's speed.
extension LineClient {
    /// Sends `step ticks` and returns the snapshot that step sent to everyone: the last one before the step's
    /// ack (a held world also sends a snapshot after each structural change, which may still be unread).
    func step(_ ticks: Int, id: Int) throws -> Snapshot? {
        guard let line = try stepLine(ticks, id: id), case .snapshot(let snapshot)? = ServerMessage.decode(line) else { return nil }
        return snapshot
    }

    /// Sends `step ticks` and returns the raw line of the snapshot it produced.
    func stepLine(_ ticks: Int, id: Int) throws -> String? {
        try stepLines(ticks, id: id).last
    }

    /// Sends `step ticks` and returns every line read up to and including the snapshot it produced (the last
    /// snapshot before the step's ack, which the server sends right after it).
    func stepLines(_ ticks: Int, id: Int) throws -> [String] {
        let echo = MessageID.number(String(id))
        try send(ClientMessage(id: echo, .step(ticks: ticks)))
        let deadline = Date().addingTimeInterval(20)
        var lines: [String] = []
        var lastSnapshot: Int?
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if line.hasPrefix(#"{"type":"snapshot""#) { lastSnapshot = lines.count }
            if line.hasPrefix(#"{"type":"ack""#) || line.hasPrefix(#"{"type":"error""#),
               case let message? = ServerMessage.decode(line) {
                switch message {
                case .ack(echo, _): return lastSnapshot.map { Array(lines[...$0]) } ?? []
                case .error(let error) where error.id == echo: return []
                default: break
                }
            }
            lines.append(line)
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
