import NetProtocol
import NetLoop

/// Whether the server's loop keeps time, for `GET /healthz` (docs/PROTOCOL.md, A fleet of servers).
///
/// Guarantees: a timer due every `periodMs` measures how late it fires; the loop counts as late for
/// `graceMs` after any firing more than `lateMs` behind, so a stall is still reported by the health check
/// that the stall itself delayed (libuv runs due timers before it reads sockets).
final class LoopHealth {
    static let periodMs: UInt64 = 250
    static let lateMs: UInt64 = 1000
    static let graceMs: UInt64 = 5000
    private let loop: EventLoop
    private var timer: UVTimer?
    private var expectedMs: UInt64 = 0
    private var lastLate: (atMs: UInt64, byMs: UInt64)?

    init(loop: EventLoop) throws {
        self.loop = loop
        let timer = try UVTimer(loop: loop)
        expectedMs = loop.nowMs + Self.periodMs
        try timer.start(afterMs: Self.periodMs, repeatMs: Self.periodMs) { [unowned self] in self.fired() }
        self.timer = timer
    }

    private func fired() {
        loop.updateTime()
        let now = loop.nowMs
        if now > expectedMs + Self.lateMs { lastLate = (now, now - expectedMs) }
        expectedMs = now + Self.periodMs
    }

    /// Why the loop is unhealthy now (nil: on time).
    var problem: String? {
        guard let late = lastLate, loop.nowMs &- late.atMs < Self.graceMs else { return nil }
        return "event loop late by \(late.byMs) ms"
    }

    func close() {
        timer?.close()
        timer = nil
    }
}
