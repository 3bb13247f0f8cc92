import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The HTTP port under RFC 9112 and RFC 6455's handshake rules (docs/PROTOCOL.md, HTTP and WebSocket),
    /// through the real server with raw sockets: each case's status, and every answer read whole before the
    /// server's FIN — never a reset.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct EdgeHTTPStrictTests {
        static let cases: [(String, String, Int)] = [
            ("whitespace before a header colon", "POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n", 400),
            ("two Host headers", "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            ("HTTP/1.1 without Host", "GET /healthz HTTP/1.1\r\n\r\n", 400),
            ("HTTP/9.9", "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n", 505),
            ("an unknown method", "BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 501),
            ("a known method not served", "DELETE /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 405),
            ("HTTP/1.0 without Host", "GET /healthz HTTP/1.0\r\n\r\n", 200),
        ]

        @Test func eachRFC9112CaseGetsItsStatusAndEndsWithFIN() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            for (name, request, status) in Self.cases {
                let (reply, ending) = try EdgeSocket.exchange(port: http, request)
                #expect(reply?.status == status, "\(name): \(String(describing: reply?.status))")
                #expect(ending == .fin, "\(name): the connection ends with a FIN, not \(ending)")
            }
            withExtendedLifetime(server) {}
        }

        @Test func theAbsoluteFormIsAccepted() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let (reply, _) = try EdgeSocket.exchange(port: http, "GET http://127.0.0.1:\(http)/healthz HTTP/1.1\r\nHost: 127.0.0.1:\(http)\r\n\r\n")
            #expect(reply?.status == 200)
            #expect(reply?.body == "ok\n")
            let (metrics, _) = try EdgeSocket.exchange(port: http, "GET http://127.0.0.1:\(http)/metrics?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(metrics?.body.contains("dyn_clients") == true)
            withExtendedLifetime(server) {}
        }

        @Test func a431IsReadWholeBeforeTheFINEvenWithTheRequestUnread() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let socket = try EdgeSocket(port: http)
            // 256 KiB of head: the server stops reading after 8 KiB, so most of it is still unread when it answers.
            let huge = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Filler: " + String(repeating: "a", count: 256 * 1024) + "\r\n\r\n"
            let sender = Thread { try? socket.send(huge) }
            sender.start()
            let (bytes, ending) = socket.readToEnd(timeout: 15)
            let reply = try #require(HTTPReply(bytes), "an HTTP answer: \(bytes.count) bytes")
            #expect(reply.status == 431)
            let length = try #require(reply.headers["content-length"].flatMap { Int($0) })
            #expect(reply.body.utf8.count == length, "the whole body arrived")
            #expect(ending == .fin, "then a FIN, not \(ending)")
            #expect(try HTTPReply.get(port: http, "/healthz")?.status == 200)
            withExtendedLifetime(server) {}
        }

        /// The 101 head (or other answer) to a handshake with `key` and `extra` header lines.
        static func handshake(port: UInt16, key: String, extra: String = "") throws -> String {
            let socket = try EdgeSocket(port: port)
            try socket.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\n"
                            + "Sec-WebSocket-Version: 13\r\n\(extra)\r\n")
            var bytes: [UInt8] = []
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let (chunk, ending) = socket.readToEnd(timeout: 0.2)
                bytes += chunk
                if ending != .timeout || String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n") { break }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            return String(text[..<(text.range(of: "\r\n\r\n")?.lowerBound ?? text.endIndex)])
        }

        @Test func aKeyThatIsNotBase64Of16BytesIs400() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            #expect(try Self.handshake(port: http, key: "dGhlIHNhbXBsZSBub25jZQ==").hasPrefix("HTTP/1.1 101"))
            for bad in ["!!!!!!!!!!!!!!!!!!!!!!==", "dGhlIHNhbXBsZSBub25j====", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "c2hvcnQ="] {
                #expect(try Self.handshake(port: http, key: bad).hasPrefix("HTTP/1.1 400"), "key \(bad)")
            }
            withExtendedLifetime(server) {}
        }

        @Test func theDynV1SubprotocolIsSelectedWhenOffered() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let key = "dGhlIHNhbXBsZSBub25jZQ=="
            let offered = try Self.handshake(port: http, key: key, extra: "Sec-WebSocket-Protocol: chat, dyn.v1\r\n")
            #expect(offered.hasPrefix("HTTP/1.1 101"))
            #expect(offered.contains("\r\nSec-WebSocket-Protocol: dyn.v1"), "\(offered)")
            let other = try Self.handshake(port: http, key: key, extra: "Sec-WebSocket-Protocol: chat\r\n")
            #expect(other.hasPrefix("HTTP/1.1 101"))
            #expect(!other.contains("Sec-WebSocket-Protocol"), "no subprotocol is named when dyn.v1 is not offered")
            let none = try Self.handshake(port: http, key: key)
            #expect(!none.contains("Sec-WebSocket-Protocol"))
            withExtendedLifetime(server) {}
        }
    }
}
