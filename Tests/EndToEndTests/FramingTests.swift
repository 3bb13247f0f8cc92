import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// Line framing over a real socket: split writes, batched lines, `\r\n`, empty lines and the line limit.
    @Suite(.serialized)
    struct FramingTests {
        @Test(.timeLimit(.minutes(5))) func messageSentOneByteAtATimeIsAnsweredOnce() throws {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            let body = try #require(client.join().scene?.bodies.first?.id)
            for line in [#"{"type":"ping","id":"slow","t":42}"# + "\r\n",
                         #"{"type":"tap","id":"tap","x":500,"y":300,"body":\#(body)}"# + "\n"] {
                for byte in line.utf8 {
                    try client.sendRaw([byte])
                    usleep(1_000)
                }
            }
            guard case let .pong(t, _, id)? = client.answer(to: .string("slow")) else {
                Issue.record("no pong for the ping sent byte by byte")
                return
            }
            #expect(t == .number(42) && id == .string("slow"))
            guard case let .ack(_, fields)? = client.answer(to: .string("tap")) else {
                Issue.record("no ack for the tap sent byte by byte")
                return
            }
            #expect(fields.number("magnitude") == 0.5)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func manyLinesInOneWriteWithEmptyLinesAndCRLFAreEachAnswered() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let client = try server.connect()
            _ = client.join()
            try client.sendRaw(Array("\n\r\n{\"type\":\"ping\",\"id\":1}\n\n{\"type\":\"ping\",\"id\":2}\r\n\n".utf8))
            let answers = (0..<2).compactMap { _ in client.waitFor { if case .pong = $0 { true } else { false } } }
            #expect(answers.count == 2)
            let ids = answers.map { message -> MessageID? in
                if case let .pong(_, _, id) = message { return id }
                return nil
            }
            #expect(ids == [.int(1), .int(2)])
            // Empty lines are ignored, not answered: nothing else comes.
            #expect(client.waitFor(timeout: 0.5) { if case .error = $0 { true } else { false } } == nil)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func oversizeLineIsDiscardedWithLineTooLongAndTheNextLineWorks() throws {
            let server = try ServerProcess(["--scene", "push"])
            let client = try server.connect()
            _ = client.join()
            // 70 000 bytes > 64 KiB, followed in the same write by a good line.
            let padding = String(repeating: "x", count: 70_000)
            try client.send(#"{"type":"ping","id":"big","pad":"\#(padding)"}"# + "\n" + #"{"type":"ping","id":"next","t":7}"#)
            let error = try #require(client.nextError())
            #expect(error.code == .lineTooLong)
            #expect(error.id == nil, "the id of a discarded line is never read")
            guard case let .pong(t, _, .string("next"))? = client.answer(to: .string("next")) else {
                Issue.record("the line after the oversize one was not answered")
                return
            }
            #expect(t == .number(7))
            #expect(client.waitFor(timeout: 0.3) { if case .pong(_, _, .string("big")) = $0 { true } else { false } } == nil)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func lineOfExactlyTheLimitIsAcceptedOneByteMoreIsNot() throws {
            let server = try ServerProcess(["--scene", "empty", "--max-line-bytes", "1024"])
            let client = try server.connect()
            _ = client.join()
            let fits = paddedPing(id: "fits", bytes: 1024)
            let over = paddedPing(id: "over", bytes: 1025)
            #expect(fits.utf8.count == 1024 && over.utf8.count == 1025)
            try client.send(fits)
            guard case .pong? = client.answer(to: .string("fits")) else {
                Issue.record("a 1024-byte line was refused by a 1024-byte limit")
                return
            }
            try client.send(over)
            #expect(client.nextError()?.code == .lineTooLong)
            withExtendedLifetime(server) {}
        }

        /// A ping line of exactly `bytes` bytes (newline excluded).
        private func paddedPing(id: String, bytes: Int) -> String {
            let head = #"{"type":"ping","id":"\#(id)","pad":""#, tail = #""}"#
            return head + String(repeating: "p", count: bytes - head.utf8.count - tail.utf8.count) + tail
        }
    }
}
