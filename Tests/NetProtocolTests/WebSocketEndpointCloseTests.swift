import CWslay
import NetProtocol
import Testing

/// `WebSocketEndpoint`'s closing rules, a client and a server endpoint back to back: a Pong before a Close
/// that follows its Ping, and a status in the Close of every violation (RFC 6455 7.4.1).
@Suite(.timeLimit(.minutes(1)))
struct WebSocketEndpointCloseTests {
    let client = WebSocketEndpoint(role: .client, maxMessageBytes: 1 << 20)
    let server = WebSocketEndpoint(role: .server, maxMessageBytes: 100)

    func deliver(_ bytes: [UInt8], to endpoint: WebSocketEndpoint) -> [WebSocketEndpoint.Message] {
        bytes.withUnsafeBytes { endpoint.receive($0) }
    }

    @Test func aPingAndACloseInOneReadGetThePongThenTheClose() {
        let bytes = client.frame(opcode: UInt8(WSLAY_PING.rawValue), Array("hi".utf8)) + client.close(code: 1000)
        _ = deliver(bytes, to: server)
        let back = deliver(server.takeOutput(), to: client)
        guard back.count == 2, case .pong(let payload) = back[0], case .close(1000) = back[1] else {
            Issue.record("got \(back)")
            return
        }
        #expect(payload == Array("hi".utf8))
    }

    @Test func aFrameTheFrameLayerRejectsIsClosedWith1002() {
        // A ping declaring 126 bytes (control frames hold at most 125), after a good ping in the same read.
        let good = client.frame(opcode: UInt8(WSLAY_PING.rawValue), [1])
        let bad: [UInt8] = [0x89, 0x80 | 126, 0, 126, 0, 0, 0, 0] + [UInt8](repeating: 0x61, count: 126)
        _ = deliver(good + bad, to: server)
        let back = deliver(server.takeOutput(), to: client)
        #expect(back.count == 2)
        #expect({ if case .pong([1])? = back.first { true } else { false } }(), "the good ping's pong first: \(back)")
        #expect({ if case .close(1002)? = back.last { true } else { false } }(), "then Close 1002: \(back)")
        #expect(server.statusCodeSent == 1002 && !server.wantsRead)
    }

    @Test func aOneByteClosePayloadIsClosedWith1002() {
        _ = deliver([0x88, 0x81, 0, 0, 0, 0, 0x03], to: server)
        let back = deliver(server.takeOutput(), to: client)
        #expect({ if case .close(1002)? = back.last { true } else { false } }(), "got \(back)")
        #expect(server.statusCodeSent == 1002)
    }

    @Test func anEmptyCloseIsStillEchoedEmpty() {
        _ = deliver([0x88, 0x80, 0, 0, 0, 0], to: server)
        let out = server.takeOutput()
        #expect(out == [0x88, 0x00], "a Close without a status is answered without one (RFC 6455 5.5.1)")
    }

    /// A Close frame from a client with `reason` bytes after status 1000, masked with zeros (so the bytes
    /// on the wire are the reason itself).
    func closeFrame(reason: [UInt8]) -> [UInt8] {
        [0x88, 0x80 | UInt8(2 + reason.count), 0, 0, 0, 0, 0x03, 0xE8] + reason
    }

    /// Feeds `bytes` to a fresh server in two reads split at `split`; returns the status it sent.
    func statusSent(_ bytes: [UInt8], split: Int) -> UInt16 {
        let server = WebSocketEndpoint(role: .server, maxMessageBytes: 100)
        _ = deliver(Array(bytes[..<split]), to: server)
        _ = deliver(Array(bytes[split...]), to: server)
        return server.statusCodeSent
    }

    @Test func aCloseReasonIsJudgedWholeWhereverTheReadsSplitIt() {
        // "é—" in UTF-8: a split inside either character must not make it look invalid.
        let valid = closeFrame(reason: Array("ok é—".utf8))
        for split in 1..<valid.count {
            #expect(statusSent(valid, split: split) == 1000, "valid reason split at \(split)")
        }
        // A lone continuation byte after "ab": invalid however it arrives.
        let invalid = closeFrame(reason: [0x61, 0x62, 0x80, 0x63])
        for split in 1..<invalid.count {
            #expect(statusSent(invalid, split: split) == 1007, "invalid reason split at \(split)")
        }
    }

    @Test func aCloseFrameNotFullyArrivedWaitsForItsLastByte() {
        // Its reason is already invalid in the first read; it is judged when the frame is whole.
        let frame = closeFrame(reason: [0xFF, 0x00, 0x00])
        _ = deliver(Array(frame.dropLast()), to: server)
        #expect(server.takeOutput().isEmpty && server.wantsRead)
        _ = deliver([frame.last!], to: server)
        #expect(server.statusCodeSent == 1007 && !server.wantsRead)
    }

    @Test func framesBeforeAHalfArrivedCloseAreReadAtOnce() {
        let payload = Array("{\"type\":\"hello\"}".utf8)
        let text = payload.withUnsafeBytes { client.text($0) }
        let close = closeFrame(reason: Array("bye".utf8))
        let first = deliver(text + close.prefix(5), to: server)
        guard first.count == 1, case .text(let line) = first[0] else {
            Issue.record("the text message before the Close arrives at once: \(first)")
            return
        }
        #expect(line == payload)
        #expect(deliver(Array(close.dropFirst(5)), to: server).count == 1)
        #expect(server.statusCodeSent == 1000)
    }
}
