import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Read backpressure (docs/PROTOCOL.md, rate limit): the server reads a client only as fast as its bucket
    /// allows and only while its output drains, and tells a flooder once.
    @Suite(.serialized)
    struct BackpressureTests {
        @Test(.timeLimit(.minutes(5))) func aFlooderIsToldOnceAndEveryLineIsHandledInOrderAtItsRate() throws {
            let server = try ServerProcess(["--scene", "default", "--rate", "100", "--burst", "50"])
            let flooder = try server.connect()
            _ = flooder.join()
            #expect(try flooder.subscribe(#""snapshots":"none""#, id: 1) != nil)
            // 300 taps without ids (no answers), then a ping with one: its pong can only come once every tap
            // before it has been handled.
            let tap = #"{"type":"tap","x":400,"y":300,"mode":"instantaneous"}"# + "\n"
            let lines = String(repeating: tap, count: 300) + #"{"type":"ping","id":2}"# + "\n"
            let start = Date()
            try flooder.sendRaw(Array(lines.utf8))
            var received: [String] = []
            var receivedBytes = 0
            while let line = flooder.nextLine(timeout: 10) {
                received.append(line)
                receivedBytes += line.utf8.count + 1
                if line.contains(#""type":"pong""#) { break }
            }
            let elapsed = Date().timeIntervalSince(start)
            let messages = received.compactMap { ServerMessage.decode($0) }
            let errors = messages.compactMap { if case let .error(e) = $0 { e } else { nil } }
            #expect(errors.map(\.code) == [.rateLimited], "one rate_limited error for the burst: \(errors)")
            #expect(errors.first?.id == nil)
            guard case .pong(_, _, .int(2)?)? = messages.last else {
                Issue.record("no pong after the taps: \(received.suffix(3))")
                return
            }
            #expect(receivedBytes < lines.utf8.count, "the flooder got \(receivedBytes) bytes for \(lines.utf8.count) sent")
            // 250 taps beyond the burst at 100/s cannot be handled in less than 2.5 s (a lower bound: a loaded
            // machine can only take longer).
            #expect(elapsed >= 2.0, "handled in \(elapsed) s")
            // After the burst, the bucket refills and the client is an ordinary one again.
            guard case .pong? = try flooder.request(.ping(t: nil), id: .int(3)) else {
                Issue.record("no pong afterwards")
                return
            }
        }

        @Test(.timeLimit(.minutes(5))) func aClientThatDoesNotReadIsPausedAndGetsEveryAnswerWhenItReads() throws {
            let server = try ServerProcess(["--scene", "empty", "--rate", "1000000", "--burst", "1000000",
                                            "--send-buffer-bytes", "4096", "--max-outbox-bytes", "1048576",
                                            "--log-level", "debug"])
            let client = try LineClient(port: server.port, receiveBufferBytes: 4096)
            _ = client.join()
            #expect(try client.subscribe(#""snapshots":"none""#, id: 1) != nil)
            // 8 000 pings while reading nothing: their pongs back up past the 256 KiB watermark, so the server
            // stops reading and the rest of the pings wait in the kernel.
            let count = 8000
            try client.sendRaw(Array((1...count).map { #"{"type":"ping","id":\#($0)}"# + "\n" }.joined().utf8))
            let deadline = Date().addingTimeInterval(10)
            while !server.stderr.contains("reading paused"), Date() < deadline { _ = poll(nil, 0, 20) }
            #expect(server.stderr.contains("client 1: reading paused"), "the server stopped reading")
            var next = 1
            while next <= count, let message = client.next(timeout: 10) {
                guard case let .pong(_, _, id?) = message else { continue }
                #expect(id == .int(next), "pongs in order")
                next += 1
            }
            #expect(next == count + 1, "every ping answered (\(next - 1) of \(count))")
            // Reading resumed once the answers drained: a new ping is answered.
            guard case .pong? = try client.request(.ping(t: nil), id: .int(count + 1)) else {
                Issue.record("no pong after draining")
                return
            }
            #expect(!server.stderr.contains("client 1 dropped"), "a slow reader is paused, not dropped")
        }
    }
}
