import CWslay
import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The reliability checks of the TCP suites, for WebSockets: a thousand idle WebSockets are all served,
    /// a WebSocket that stops reading is dropped after the stall timeout without slowing others, and churn
    /// of every kind (orderly Close, resets mid-frame and mid-drag, half handshakes, plain HTTP)
    /// leaves no descriptor, memory, drag or client behind. `DYN_WS_CHURN` sets the churn count (500; 5 000
    /// in soak).
    @Suite(.serialized)
    struct ReliabilityWebSocketTests {
        enum Departure: Int, CaseIterable {
            case orderlyClose, resetMidFrame, resetMidDrag, halfHandshake, plainHTTP
        }

        static func churnOnce(_ departure: Departure, port: UInt16, body: Int) throws {
            switch departure {
            case .orderlyClose:
                let client = try WebSocketClient(port: port)
                _ = client.nextFrame(timeout: 5)
                try client.sendRaw(client.endpoint.close(code: 1000))
                _ = client.closeStatus(timeout: 5)
            case .resetMidFrame:
                let client = try WebSocketClient(port: port)
                let frame = Array(#"{"type":"tap","x":400,"y":300}"#.utf8).withUnsafeBytes { client.endpoint.text($0) }
                try client.sendRaw(Array(frame.prefix(frame.count / 2)))
                client.socket.reset()
            case .resetMidDrag:
                let client = try WebSocketClient(port: port)
                let answer = try client.request(#"{"type":"drag","phase":"begin","x":400,"y":300,"body":\#(body),"id":1}"#, id: .int(1))
                guard case .ack? = answer else { throw EndToEndError("drag begin not acked: \(String(describing: answer))") }
                client.socket.reset()
            case .halfHandshake:
                let socket = try BlockingSocket(port: port)
                try socket.send("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websock")
                socket.reset()
            case .plainHTTP:
                guard try HTTPReply.get(port: port, "/healthz")?.status == 200 else { throw EndToEndError("healthz failed") }
            }
        }

        @Test(.timeLimit(.minutes(15))) func churnedWebSocketsLeaveNoDescriptorMemoryOrDragBehind() throws {
            let count = Reliability.count("DYN_WS_CHURN", quick: 500, soak: 5_000)
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let observer = try server.connect()
            let body = try #require(observer.join().scene?.bodies.first?.id)
            let descriptorsBeforeWarmUp = server.probe.openDescriptors
            for i in 0..<40 { try Self.churnOnce(Departure(rawValue: i % 5)!, port: http, body: body) }
            #expect(observer.answersPing())
            let probe = server.probe
            // The warm-up's descriptors close once the server has read their ends: wait until it has.
            _ = Reliability.eventually(timeout: 5) { probe.openDescriptors <= descriptorsBeforeWarmUp }
            let baselineFDs = probe.openDescriptors
            let baselineKB = probe.residentKB

            var failures: [String] = []
            for i in 0..<count {
                do { try Self.churnOnce(Departure(rawValue: i % 5)!, port: http, body: body) } catch {
                    failures.append("#\(i): \(error)")
                }
            }
            #expect(failures.isEmpty, "\(failures.count) churn failures, first: \(failures.prefix(3))")
            #expect(observer.answersPing(), "the long-lived TCP client is still served")
            let settled = Reliability.eventually(timeout: 10) { probe.openDescriptors <= baselineFDs }
            let afterFDs = probe.openDescriptors
            let afterKB = probe.residentKB
            print("websocket churn \(count): fds \(baselineFDs) -> \(afterFDs), RSS \(baselineKB) KB -> \(afterKB) KB")
            #expect(settled, "descriptors \(baselineFDs) before, \(afterFDs) after \(count) connections")
            // Memory is a measurement: asserted under `make soak` (DYN_TIMING=1), printed otherwise.
            #expect(!Reliability.measuresTiming || afterKB - baselineKB < 5 * 1024,
                    "RSS \(baselineKB) KB before, \(afterKB) KB after")

            let fresh = try WebSocketClient(port: http)
            let snapshot = try #require(fresh.join().snapshot)
            #expect(snapshot.drags.isEmpty, "drags left behind: \(snapshot.drags)")
            #expect(snapshot.clients == 2, "only the observer and the fresh client are connected")
        }

        @Test(.timeLimit(.minutes(15))) func thousandIdleWebSocketsAllGetWelcomeAndTheLastIsAnswered() throws {
            let count = 1_000
            let limit = Reliability.raiseFileLimit(to: 4_096)
            try #require(limit >= UInt64(count + 100), "RLIMIT_NOFILE \(limit) is too low for \(count) connections")
            let server = try ServerProcess(["--max-clients", "2000", "--scene", "empty"])
            let http = try #require(server.httpPort)
            let probe = server.probe
            let baselineFDs = probe.openDescriptors
            let baselineKB = probe.residentKB
            var clients: [WebSocketClient] = []
            var welcomed = 0
            for _ in 0..<count {
                let client = try WebSocketClient(port: http)
                if case .welcome? = client.next(timeout: 10) { welcomed += 1 }
                clients.append(client)
            }
            #expect(welcomed == count)
            #expect(probe.openDescriptors == baselineFDs + count)
            #expect(clients[count - 1].answersPing(timeout: 10), "a command on the last WebSocket is answered")
            #expect(clients[0].answersPing(timeout: 10), "and on the first")
            let counted = clients[count - 1].waitFor(timeout: 5) { if case let .snapshot(s) = $0 { s.clients == count } else { false } }
            #expect(counted != nil, "snapshots count \(count) clients")
            let heldKB = probe.residentKB
            clients.removeAll()
            #expect(Reliability.eventually(timeout: 10) { probe.openDescriptors == baselineFDs },
                    "descriptors back to \(baselineFDs), now \(probe.openDescriptors)")
            print("1000 idle websockets: RSS \(baselineKB) KB -> \(heldKB) KB held -> \(probe.residentKB) KB after")
            #expect(probe.isAlive)
            let tcp = try server.connect()
            #expect(tcp.join().snapshot?.clients == 1, "the server is back to one client")
        }

        @Test(.timeLimit(.minutes(15))) func webSocketStuckLongerThanTheStallTimeoutIsDropped() throws {
            let server = try ServerProcess(["--scene", "empty", "--rate", "100000", "--burst", "100000",
                                            "--tick-hz", "30", "--snapshot-hz", "30", "--stall-timeout", "1"])
            let http = try #require(server.httpPort)
            let reader = try server.connect()
            _ = try #require(reader.join().scene)
            // 1000 items, one bouncing forever: every snapshot is ~70 KB and the world never pauses.
            _ = try #require(try reader.ack(#"{"type":"gravity","id":1,"magnitude":0}"#, id: 1))
            _ = try #require(try reader.ack(#"{"type":"collision","id":2,"mode":"boundaries"}"#, id: 2))
            var batch = #"{"type":"spawn","shape":"rect","width":8,"height":8,"x":400,"y":300,"vx":300,"vy":170,"elasticity":1}"# + "\n"
            for i in 1..<1000 {
                batch += #"{"type":"spawn","shape":"rect","width":8,"height":8,"x":\#(20 + (i % 40) * 19),"y":\#(20 + (i / 40) * 22),"anchored":true}"# + "\n"
            }
            try reader.sendRaw(Array(batch.utf8))
            #expect(reader.nextSnapshot(timeout: 30) { $0.bodies.count == 1000 } != nil)
            let sleeper = try WebSocketClient(port: http)   // never reads after the handshake
            var streamed = 0
            let deadline = Date().addingTimeInterval(30)
            while !server.stderr.contains("client 2 dropped: stuck"), Date() < deadline {
                streamed += reader.snapshotTicks(for: 0.5).count
            }
            #expect(server.stderr.contains("client 2 dropped: stuck: no write progress"), "dropped with a logged reason")
            #expect(streamed > 0, "the TCP reader kept receiving snapshots while the WebSocket was stuck")
            // At 30 Hz over the second of stall timeout, at least 20: a rate, judged under `make soak` only.
            #expect(!Reliability.measuresTiming || streamed >= 20, "the TCP reader kept receiving snapshots (\(streamed))")
            _ = sleeper.socket.receiveUntilClosed(timeout: 15)
            #expect(sleeper.isClosedByPeer, "the stuck WebSocket was closed")
            #expect(try reader.currentTick() != nil, "the reader is still served")
        }
    }
}
