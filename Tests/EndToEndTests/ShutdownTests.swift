import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// SIGTERM / SIGINT: every client gets `bye` as its last line, then the process exits 0 (within 2 s:
    /// judged under `make soak`, DYN_TIMING=1, with 3 s of wall time allowed for a loaded machine).
    @Suite(.serialized)
    struct ShutdownTests {
        static let bye = #"{"type":"bye","reason":"shutdown"}"#

        @Test(.timeLimit(.minutes(5)), arguments: [SIGTERM, SIGINT])
        func signalSendsByeToEveryClientAsTheLastLineAndExitsZero(signal: Int32) throws {
            let server = try ServerProcess(["--scene", "default"])
            let clients = try (0..<3).map { _ in try server.connect() }
            var body: BodyState?
            for client in clients { body = client.join().snapshot?.bodies.last }
            // One client is mid-drag: shutdown must not trip over the drag it releases.
            let grabbed = try #require(body)
            _ = try #require(try clients[0].ack(
                #"{"type":"drag","id":1,"phase":"begin","body":\#(grabbed.id),"x":\#(grabbed.x),"y":\#(grabbed.y)}"#, id: 1))

            server.signal(signal)
            let allowed: Double = Reliability.measuresTiming ? 3 : 30
            let deadline = Date().addingTimeInterval(allowed)
            for (index, client) in clients.enumerated() {
                let lines = client.linesUntilClosed(timeout: allowed)
                #expect(lines.last == Self.bye, "client \(index): last line \(lines.last ?? "none")")
                #expect(lines.filter { $0 == Self.bye }.count == 1)
                #expect(client.isClosedByPeer, "client \(index): the server closed the connection")
            }
            let status = server.waitForExit(timeout: max(0, deadline.timeIntervalSinceNow))
            #expect(status == 0, "exit status \(status.map(String.init) ?? "none: still running \(allowed) s after the signal")")
            #expect(server.stderr.contains("shutting down"))
        }
    }
}
