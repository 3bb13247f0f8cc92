import CWslay
import NetProtocol
import Testing

/// `WebSocketEndpoint` over wslay, a client and a server endpoint wired back to back (no sockets).
struct WebSocketEndpointTests {
    let client = WebSocketEndpoint(role: .client, maxMessageBytes: 1 << 20)
    let server = WebSocketEndpoint(role: .server, maxMessageBytes: 100)

    func deliver(_ bytes: [UInt8], to endpoint: WebSocketEndpoint) -> [WebSocketEndpoint.Message] {
        bytes.withUnsafeBytes { endpoint.receive($0) }
    }

    func texts(_ messages: [WebSocketEndpoint.Message]) -> [String] {
        messages.compactMap { if case .text(let b) = $0 { String(decoding: b, as: UTF8.self) } else { nil } }
    }

    @Test(.timeLimit(.minutes(3))) func textTravelsBothWaysMaskedFromTheClientOnly() {
        let fromClient = Array("hello".utf8).withUnsafeBytes { client.text($0) }
        #expect(fromClient[1] & 0x80 != 0, "client frames are masked")
        #expect(texts(deliver(fromClient, to: server)) == ["hello"])
        let fromServer = Array("world".utf8).withUnsafeBytes { server.text($0) }
        #expect(fromServer[1] & 0x80 == 0, "server frames are not")
        #expect(texts(deliver(fromServer, to: client)) == ["world"])
    }

    @Test(.timeLimit(.minutes(3))) func fragmentsSplitAnywhereAreReassembled() {
        let bytes = client.fragmentedText(Array(#"{"type":"ping"}"#.utf8), fragmentBytes: 4)
        var messages: [WebSocketEndpoint.Message] = []
        for byte in bytes { messages += deliver([byte], to: server) }
        #expect(texts(messages) == [#"{"type":"ping"}"#])
    }

    @Test(.timeLimit(.minutes(3))) func messageOverTheLimitIsReportedOnceAndTheNextOneArrives() {
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 150)
        let messages = deliver(client.fragmentedText(big, fragmentBytes: 60) + Array("ok".utf8).withUnsafeBytes { client.text($0) }, to: server)
        guard messages.count == 2, case .tooLong(let length) = messages[0] else {
            Issue.record("got \(messages)")
            return
        }
        #expect(length == 150)
        #expect(texts([messages[1]]) == ["ok"])
    }

    @Test(.timeLimit(.minutes(3))) func binaryIsReportedWithItsLength() {
        let messages = deliver(client.frame(opcode: UInt8(WSLAY_BINARY_FRAME.rawValue), [1, 2, 3]), to: server)
        guard case .binary(3)? = messages.first else {
            Issue.record("got \(messages)")
            return
        }
    }

    @Test(.timeLimit(.minutes(3))) func pingIsAnsweredWithPongAndCloseWithClose() {
        _ = deliver(client.frame(opcode: UInt8(WSLAY_PING.rawValue), [7, 7]), to: server)
        let answer = server.takeOutput()
        #expect(deliver(answer, to: client).contains { if case .pong([7, 7]) = $0 { true } else { false } })
        let closing = deliver(client.close(code: 1000, reason: "done"), to: server)
        #expect(closing.contains { if case .close(1000) = $0 { true } else { false } })
        #expect(server.closeSent && !server.wantsRead)
        let reply = server.takeOutput()
        #expect(deliver(reply, to: client).contains { if case .close(1000) = $0 { true } else { false } }, "the Close is echoed")
        #expect(Array("late".utf8).withUnsafeBytes { server.text($0) }.isEmpty, "nothing after the Close frame")
    }

    @Test(.timeLimit(.minutes(3))) func unmaskedClientFrameIsAProtocolError() {
        var iocb = wslay_frame_iocb()
        iocb.fin = 1
        iocb.opcode = UInt8(WSLAY_TEXT_FRAME.rawValue)
        let messages = deliver(WebSocketFrameWriter.frame(iocb: iocb, masked: false, payload: Array("x".utf8)), to: server)
        #expect(messages.isEmpty)
        #expect(server.statusCodeSent == 1002)
        #expect(!server.wantsRead)
    }

    @Test(.timeLimit(.minutes(3))) func textFramerFramesEachLineOnceAndSharesTheResultForTheSameBuffer() {
        let framer = WebSocketTextFramer()
        let lines = SharedBytes(Array("{\"a\":1}\n\n{\"b\":2}\n".utf8))
        let framed = framer.frames(for: lines)
        #expect(framer.frames(for: lines) === framed, "a broadcast buffer is framed once")
        #expect(texts(deliver(Array(framed.readOnly), to: client)) == [#"{"a":1}"#, #"{"b":2}"#])
        let other = framer.frames(for: SharedBytes(Array("{\"c\":3}\n".utf8)))
        #expect(other !== framed)
        #expect(texts(deliver(Array(other.readOnly), to: client)) == [#"{"c":3}"#])
    }
}
