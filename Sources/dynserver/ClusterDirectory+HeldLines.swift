import NetProtocol
import NetLoop

/// The lines a session sends while its join waits for a claim (ClusterDirectory+Lifecycle.swift): kept in
/// order, rate-limited like any line and at most `maxHeldLines`, handled once the claim is settled.
extension ClusterDirectory {
    /// Whether `session`'s lines wait for a claim; `hold` keeps one for later.
    func isHolding(_ session: ClientSession) -> Bool { holding.contains(session.id) }

    /// Keeps a line for after the claim, within the session's rate limit and at most `maxHeldLines`.
    func hold(_ line: UnsafeRawBufferPointer, for session: ClientSession) {
        guard session.bucket.take(nowNs: EventLoop.hrtimeNs), held[session.id, default: []].count < Self.maxHeldLines else {
            session.reply(.error(ProtocolError(.rateLimited, "too many lines while a join waits for the fleet's directory (at most \(Self.maxHeldLines))")))
            return
        }
        held[session.id, default: []].append(Array(line))
    }

    /// Handles the lines a session sent while it waited, in order, until one of them waits again.
    func drain(_ session: ClientSession) {
        while !holding.contains(session.id), !session.closing, var lines = held[session.id], !lines.isEmpty {
            let line = lines.removeFirst()
            held[session.id] = lines.isEmpty ? nil : lines
            // The line's token was taken when it was held.
            session.bucket.refund()
            line.withUnsafeBytes { server.handleLine($0, from: session) }
        }
        if session.closing { held[session.id] = nil }
    }
}
