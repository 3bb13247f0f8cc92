import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The HTTP/1.1 port (docs/PROTOCOL.md, HTTP): `/`, `/healthz`, `/metrics`, 404 for anything else, and
    /// 400/431 for requests that are malformed or too large — never a crash.
    @Suite(.serialized)
    struct HTTPTests {
        func http(_ server: ServerProcess) throws -> UInt16 { try #require(server.httpPort) }

        @Test(.timeLimit(.minutes(5))) func serverPrintsTheHTTPLineAfterTheTCPLineAndNoHTTPTurnsItOff() throws {
            let server = try ServerProcess()
            #expect(server.httpPort != nil && server.httpPort != server.port)
            let off = try ServerProcess(["--no-http"])
            #expect(off.httpPort == nil)
            withExtendedLifetime((server, off)) {}
        }

        @Test(.timeLimit(.minutes(5))) func healthzAnswers200Ok() throws {
            let server = try ServerProcess()
            let reply = try #require(try HTTPReply.get(port: http(server), "/healthz"))
            #expect(reply.status == 200)
            #expect(reply.body == "ok\n")
            #expect(reply.headers["connection"] == "close")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func rootServesThePageWithNothingFromElsewhere() throws {
            let server = try ServerProcess()
            let reply = try #require(try HTTPReply.get(port: http(server), "/"))
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(Int(reply.headers["content-length"] ?? "") == reply.body.utf8.count)
            #expect(reply.body.contains("<canvas"))
            #expect(reply.body.contains("<script src=\"/web/connection.js\">"), "the script that joins over /ws")
            #expect(!reply.body.contains("src=\"http"), "no script or image from elsewhere (no CDN)")
            #expect(!reply.body.contains("href=\"http"), "no stylesheet from elsewhere")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func unknownPathIs404() throws {
            let server = try ServerProcess()
            let reply = try #require(try HTTPReply.get(port: http(server), "/nothing/here"))
            #expect(reply.status == 404)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func otherMethodsAre405() throws {
            let server = try ServerProcess()
            let http = try #require(server.httpPort)
            let reply = try #require(try HTTPReply.exchange(port: http, "DELETE / HTTP/1.1\r\nHost: x\r\n\r\n"))
            #expect(reply.status == 405)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func webSocketPathWithoutUpgradeIs426() throws {
            let server = try ServerProcess()
            let reply = try #require(try HTTPReply.get(port: http(server), "/ws"))
            #expect(reply.status == 426)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func badWebSocketVersionIs400() throws {
            let server = try ServerProcess()
            let http = try #require(server.httpPort)
            let request = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n"
            let reply = try #require(try HTTPReply.exchange(port: http, request))
            #expect(reply.status == 400)
            #expect(reply.body.contains("13"))
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func handshakeAcceptMatchesRFC6455Example() {
            // RFC 6455 section 1.3's worked example.
            #expect(WebSocketHandshake.accept(key: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        }

        @Test(.timeLimit(.minutes(5))) func garbageInsteadOfARequestIs400AndTheServerStaysUp() throws {
            let server = try ServerProcess()
            let http = try #require(server.httpPort)
            let reply = try #require(try HTTPReply.exchange(port: http, "\u{16}\u{03}\u{01}\u{00}\u{a5}garbage\r\n\r\n"))
            #expect(reply.status == 400)
            let binary = try BlockingSocket(port: http)
            try binary.send((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
            _ = binary.receiveUntilClosed(timeout: 5)
            #expect(binary.isClosedByPeer, "a connection sending garbage is closed")
            #expect(try HTTPReply.get(port: http, "/healthz")?.status == 200)
            #expect(try server.connect().join().snapshot != nil, "TCP clients are still served")
        }

        @Test(.timeLimit(.minutes(5))) func garbageBeforeTheWebSocketUpgradeIs400() throws {
            let server = try ServerProcess()
            let http = try #require(server.httpPort)
            let request = "HELLO\r\nGET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            let reply = try #require(try HTTPReply.exchange(port: http, request))
            #expect(reply.status == 400)
            #expect(try WebSocketClient(port: http).join().snapshot != nil, "a proper handshake still works")
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func oversizedHeadIs431AndClosed() throws {
            let server = try ServerProcess()
            let http = try #require(server.httpPort)
            let request = "GET / HTTP/1.1\r\nHost: x\r\nX-Padding: \(String(repeating: "a", count: 20_000))\r\n\r\n"
            let reply = try #require(try HTTPReply.exchange(port: http, request))
            #expect(reply.status == 431)
            let endless = try BlockingSocket(port: http)
            try endless.send("GET /" + String(repeating: "x", count: 100_000))
            let answer = HTTPReply(endless.receiveUntilClosed(timeout: 5))
            #expect(answer?.status == 431, "a request line that never ends is cut off at the head limit")
            #expect(endless.isClosedByPeer)
            #expect(try HTTPReply.get(port: http, "/healthz")?.status == 200)
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func oversizedBodyIs413() throws {
            let server = try ServerProcess()
            let http = try #require(server.httpPort)
            let body = String(repeating: "b", count: 10_000)
            let reply = try #require(try HTTPReply.exchange(port: http, "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"))
            #expect(reply.status == 413)
            withExtendedLifetime(server) {}
        }
    }
}
