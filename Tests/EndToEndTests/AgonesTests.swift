import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for the Agones SDK sidecar's REST API (the real SDK server runs only inside a Kubernetes pod
/// and cannot be installed here): an HTTP listener on 127.0.0.1 that answers every request `200 {}` and
/// records `METHOD PATH BODY`, as documented at agones.dev (SDK REST: POST /ready, POST /health,
/// PUT /metadata/label {"key","value"}, POST /shutdown).
final class FakeAgonesSidecar: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let log = RequestLog()
    private let thread: Thread?

    init(port: UInt16) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw EndToEndError("socket() failed") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else {
            close(fd)
            throw EndToEndError("the fake sidecar cannot listen on \(port)")
        }
        self.port = port
        listener = fd
        let log = self.log
        let thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var timeout = timeval(tv_sec: 2, tv_usec: 0)
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                if let request = FakeAgonesSidecar.readRequest(client) { log.append(request) }
                let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"
                _ = answer.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
        self.thread = thread
        thread.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// `METHOD PATH BODY` of one request (head and the Content-Length body).
    private static func readRequest(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: bytes, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound]
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let body = text[end.upperBound...]
                if body.utf8.count >= length {
                    let requestLine = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
                    guard requestLine.count >= 2 else { return nil }
                    return "\(requestLine[0]) \(requestLine[1]) \(body)"
                }
            }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            bytes += chunk[0..<n]
        }
    }

    /// Every request recorded so far, in order.
    var requests: [String] { log.all }
}

/// The sidecar's record, written by its thread and read by the test.
private final class RequestLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

extension EndToEnd {
    /// The Agones SDK calls of docs/DEPLOY.md against the stand-in sidecar above: Ready once listening, Health
    /// every 2 s, the `rooms` label, Shutdown after a SIGTERM drain, and quiet retries while the sidecar is
    /// not up yet.
    @Suite(.serialized, .timeLimit(.minutes(1)))
    struct AgonesTests {
        /// A server with `AGONES_SDK_HTTP_PORT` set (the environment is read when the process starts).
        private func agonesServer(port: UInt16, _ extra: [String] = []) throws -> ServerProcess {
            setenv("AGONES_SDK_HTTP_PORT", String(port), 1)
            defer { unsetenv("AGONES_SDK_HTTP_PORT") }
            return try ServerProcess(["--scene", "empty"] + extra)
        }

        @Test func readyHealthTheRoomsLabelAndShutdownAfterSigterm() throws {
            let sidecar = try FakeAgonesSidecar(port: try TCPSocket.freePort())
            let server = try agonesServer(port: sidecar.port)
            #expect(waitUntil(timeout: 10) { sidecar.requests.first?.hasPrefix("POST /ready") == true },
                    "no ready: \(sidecar.requests)")
            #expect(waitUntil(timeout: 10) { sidecar.requests.contains(#"PUT /metadata/label {"key":"rooms","value":"1"}"#) },
                    "no rooms label for main alone: \(sidecar.requests)")
            // Health keeps coming, every 2 s: two of them within a generous deadline.
            #expect(waitUntil(timeout: 10) { sidecar.requests.filter { $0.hasPrefix("POST /health") }.count >= 2 })
            let client = try server.connect()
            _ = client.join()
            _ = try #require(try client.joinRoom("lab", id: 1).ack)
            #expect(waitUntil(timeout: 10) { sidecar.requests.contains(#"PUT /metadata/label {"key":"rooms","value":"2"}"#) },
                    "the label follows the rooms: \(sidecar.requests)")
            // The Counter follows the rooms too, with --max-rooms as its capacity; a client makes it Allocated.
            #expect(waitUntil(timeout: 10) { sidecar.requests.contains(#"PATCH /v1beta1/counters/rooms {"count":2,"capacity":1000}"#) },
                    "no rooms Counter: \(sidecar.requests)")
            #expect(waitUntil(timeout: 10) { sidecar.requests.contains { $0.hasPrefix("POST /allocate") } }, "never allocated")
            #expect(!sidecar.requests.contains { $0.hasPrefix("POST /shutdown") })
            // SIGTERM drains: not ready, no shutdown while the client plays; it leaves, then shutdown and exit 0.
            server.signal(SIGTERM)
            let httpPort = try #require(server.httpPort)
            #expect(waitUntil(timeout: 5) { (try? HTTPReply.get(port: httpPort, "/readyz"))??.body.contains("draining") == true })
            #expect(server.waitForExit(timeout: 1) == nil, "the server did not wait for its client")
            #expect(!sidecar.requests.contains { $0.hasPrefix("POST /shutdown") })
            client.close()
            #expect(server.waitForExit(timeout: 10) == 0)
            #expect(sidecar.requests.last?.hasPrefix("POST /shutdown") == true, "shutdown last: \(sidecar.requests.suffix(3))")
        }

        @Test func readyAgainWhenTheLastClientLeavesAndTheDrainEndsAtDrainS() throws {
            let sidecar = try FakeAgonesSidecar(port: try TCPSocket.freePort())
            let server = try agonesServer(port: sidecar.port, ["--drain-s", "1"])
            #expect(waitUntil(timeout: 10) { sidecar.requests.first?.hasPrefix("POST /ready") == true })
            let first = try server.connect()
            _ = first.join()
            #expect(waitUntil(timeout: 10) { sidecar.requests.contains { $0.hasPrefix("POST /allocate") } }, "never allocated")
            first.close()
            // Ready again once nobody plays: a scale-down may take this server now.
            #expect(waitUntil(timeout: 10) { sidecar.requests.filter { $0.hasPrefix("POST /ready") }.count == 2 },
                    "not ready again: \(sidecar.requests)")
            let stayer = try server.connect()
            _ = stayer.join()
            server.signal(SIGTERM)
            // The client stays: after --drain-s it is told bye (draining), and the server shuts down.
            #expect(stayer.waitFor(timeout: 10) { if case .bye(let reason) = $0 { reason == "draining" } else { false } } != nil)
            #expect(server.waitForExit(timeout: 10) == 0)
            #expect(sidecar.requests.last?.hasPrefix("POST /shutdown") == true)
        }

        @Test func aSidecarThatComesUpLateStillHearsReady() throws {
            let port = try TCPSocket.freePort()
            let server = try agonesServer(port: port)
            // Nothing listens yet: the server says so once in its log and keeps trying quietly.
            #expect(waitUntil(timeout: 10) { server.stderr.contains("agones: POST /ready") },
                    "no word about the missing sidecar:\n\(server.stderr)")
            let sidecar = try FakeAgonesSidecar(port: port)
            #expect(waitUntil(timeout: 10) { sidecar.requests.first?.hasPrefix("POST /ready") == true },
                    "ready never arrived once the sidecar was up: \(sidecar.requests)")
            #expect(server.stderr.components(separatedBy: "agones: POST /ready").count == 2, "retried quietly: one line")
            #expect(waitUntil(timeout: 10) { sidecar.requests.contains { $0.hasPrefix("POST /health") } })
            server.signal(SIGTERM)
            #expect(server.waitForExit(timeout: 10) == 0)
        }
    }
}
