import NetProtocol
import Testing

/// RFC 9112's rules that `HTTPRequestParser` adds on top of http-parser's callbacks, and the RFC 6455
/// handshake checks (docs/PROTOCOL.md, HTTP and WebSocket).
@Suite(.timeLimit(.minutes(1)))
struct HTTPRequestStrictTests {
    func outcome(_ text: String) -> HTTPRequestParser.Outcome {
        Array(text.utf8).withUnsafeBytes { HTTPRequestParser().feed($0) }
    }

    func status(_ text: String) -> Int? {
        switch outcome(text) {
        case .failed(let status, _): return status
        case .request: return 200
        case .needMore: return nil
        }
    }

    @Test func whitespaceBeforeAHeaderColonIs400() {
        #expect(status("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost\t: x\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nHost: x\r\nX-Fine: a b\r\n\r\n") == 200, "spaces inside a value are fine")
    }

    @Test func hostMustBeThereOnceInHTTP11() {
        #expect(status("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.0\r\n\r\n") == 200, "HTTP/1.0 has no Host requirement")
        #expect(status("GET / HTTP/1.0\r\nHost: a\r\nhost: b\r\n\r\n") == 400, "names compare without case")
    }

    @Test func otherMajorVersionsAre505() {
        #expect(status("GET / HTTP/9.9\r\nHost: x\r\n\r\n") == 505)
        #expect(status("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505)
        #expect(status("GET / HTTP/1.1\r\nHost: x\r\n\r\n") == 200)
    }

    @Test func anUnknownMethodIs501AndGarbageStays400() {
        #expect(status("BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n") == 501)
        #expect(status("FOO / HTTP/1.1\r\n") == 501, "the method is judged before the head ends")
        #expect(status("\u{16}\u{03}\u{01}\u{00}\u{a5}garbage\r\n\r\n") == 400)
        #expect(status("HELLO\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n") == 400)
    }

    @Test func theAbsoluteFormHasTheSamePathAsTheOriginForm() throws {
        guard case let .request(head, _) = outcome("GET http://example:7701/healthz?x=1 HTTP/1.1\r\nHost: example:7701\r\n\r\n") else {
            Issue.record("absolute form refused")
            return
        }
        #expect(head.path == "/healthz")
        guard case let .request(bare, _) = outcome("GET http://example HTTP/1.1\r\nHost: example\r\n\r\n") else {
            Issue.record("absolute form without a path refused")
            return
        }
        #expect(bare.path == "/")
        guard case let .request(origin, _) = outcome("GET /metrics?y HTTP/1.1\r\nHost: x\r\n\r\n") else {
            Issue.record("origin form refused")
            return
        }
        #expect(origin.path == "/metrics")
    }

    static func handshake(key: String, extra: String = "") -> String {
        "GET /ws HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\n"
            + "Sec-WebSocket-Version: 13\r\n\(extra)\r\n"
    }

    func head(_ text: String) throws -> HTTPRequestHead {
        guard case let .request(head, _) = outcome(text) else { throw ParseFailure() }
        return head
    }

    struct ParseFailure: Error {}

    @Test func aKeyThatIsNotBase64Of16BytesIsRefused() throws {
        #expect(WebSocketHandshake.problem(with: try head(Self.handshake(key: "dGhlIHNhbXBsZSBub25jZQ=="))) == nil)
        for bad in ["!!!!!!!!!!!!!!!!!!!!!!==", "dGhlIHNhbXBsZSBub25j====", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25jZSE=",
                    "dGhl IHNhbXBsZSBub25jZQ=", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
            #expect(WebSocketHandshake.problem(with: try head(Self.handshake(key: bad))) != nil, "key \(bad)")
        }
        let twice = Self.handshake(key: "dGhlIHNhbXBsZSBub25jZQ==", extra: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")
        #expect(WebSocketHandshake.problem(with: try head(twice)) != nil)
    }

    @Test func dynV1IsSelectedOnlyWhenOffered() throws {
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        #expect(WebSocketHandshake.selectedSubprotocol(try head(Self.handshake(key: key))) == nil)
        #expect(WebSocketHandshake.selectedSubprotocol(try head(Self.handshake(key: key, extra: "Sec-WebSocket-Protocol: chat, dyn.v1\r\n"))) == "dyn.v1")
        #expect(WebSocketHandshake.selectedSubprotocol(try head(Self.handshake(key: key, extra: "Sec-WebSocket-Protocol: chat\r\nSec-WebSocket-Protocol: dyn.v1\r\n"))) == "dyn.v1")
        #expect(WebSocketHandshake.selectedSubprotocol(try head(Self.handshake(key: key, extra: "Sec-WebSocket-Protocol: chat\r\n"))) == nil)
    }
}
