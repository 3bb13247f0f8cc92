import Foundation
import NetProtocol
import Testing

/// `HTTPRequestParser` over Node's http-parser: requests arriving in any pieces, upgrades, and the limits.
struct HTTPRequestParserTests {
    static let upgrade = "GET /ws?x=1 HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    func feed(_ parser: HTTPRequestParser, _ text: some Collection<UInt8>) -> HTTPRequestParser.Outcome {
        Array(text).withUnsafeBytes { parser.feed($0) }
    }

    @Test(.timeLimit(.minutes(3))) func requestFedOneByteAtATimeIsParsedWithItsHeaders() throws {
        let parser = HTTPRequestParser()
        let bytes = Array("GET /metrics HTTP/1.1\r\nHost: example\r\nX-Long: a\r\n b\r\n\r\n".utf8)
        var outcome = HTTPRequestParser.Outcome.needMore
        for byte in bytes {
            outcome = feed(parser, [byte])
            if case .needMore = outcome { continue }
            break
        }
        guard case let .request(head, consumed) = outcome else {
            Issue.record("not parsed: \(outcome)")
            return
        }
        #expect(head.method == "GET")
        #expect(head.target == "/metrics")
        #expect(head.header("host") == "example")
        #expect(head.versionMinor == 1)
        #expect(!head.upgrade)
        #expect(consumed == 1)
    }

    @Test(.timeLimit(.minutes(3))) func upgradeStopsRightAfterTheHeadAndLeavesTheFramesToTheCaller() throws {
        let parser = HTTPRequestParser()
        let frames: [UInt8] = [0x81, 0x85, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        guard case let .request(head, consumed) = feed(parser, Array(Self.upgrade.utf8) + frames) else {
            Issue.record("upgrade not parsed")
            return
        }
        #expect(head.upgrade)
        #expect(head.path == "/ws")
        #expect(consumed == Self.upgrade.utf8.count, "the frame bytes after the head are not consumed")
        #expect(WebSocketHandshake.problem(with: head) == nil)
        #expect(WebSocketHandshake.accept(key: WebSocketHandshake.clientKey(head)) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test(.timeLimit(.minutes(3))) func garbageIs400() {
        guard case let .failed(status, _) = feed(HTTPRequestParser(), Array("\u{1}\u{2} nonsense\r\n\r\n".utf8)) else {
            Issue.record("garbage accepted")
            return
        }
        #expect(status == 400)
    }

    @Test(.timeLimit(.minutes(3))) func headOverTheLimitIs431EvenWithoutAnEnd() {
        let parser = HTTPRequestParser(maxHeadBytes: 1024)
        #expect({ if case .needMore = feed(parser, Array("GET /".utf8)) { true } else { false } }())
        guard case let .failed(status, _) = feed(parser, [UInt8](repeating: UInt8(ascii: "a"), count: 2000)) else {
            Issue.record("endless request line accepted")
            return
        }
        #expect(status == 431)
    }

    @Test(.timeLimit(.minutes(3))) func bodyOverTheLimitIs413() {
        let parser = HTTPRequestParser(maxBodyBytes: 10)
        guard case let .failed(status, _) = feed(parser, Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n\(String(repeating: "b", count: 50))".utf8)) else {
            Issue.record("long body accepted")
            return
        }
        #expect(status == 413)
    }

    @Test(.timeLimit(.minutes(3))) func handshakeProblemsAreNamed() throws {
        let parser = HTTPRequestParser()
        let old = Self.upgrade.replacingOccurrences(of: "Version: 13", with: "Version: 8")
        guard case let .request(head, _) = feed(parser, Array(old.utf8)) else {
            Issue.record("not parsed")
            return
        }
        #expect(WebSocketHandshake.problem(with: head)?.contains("13") == true)
    }
}
