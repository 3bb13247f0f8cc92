import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Churn: thousands of connects and disconnects — orderly closes, resets in the middle of a
    /// line and in the middle of a drag — leave nothing behind: descriptors back to the baseline, RSS within
    /// 5 MB of it, no drag left, the right client count. `DYN_CHURN` sets the count (1 000; 5 000 in soak).
    @Suite(.serialized)
    struct ReliabilityChurnTests {
        /// The four ways a churned client leaves, in turn.
        enum Departure: Int, CaseIterable {
            case orderlyAfterWelcome, resetMidLine, resetMidDrag, closeWithUnreadAnswers
        }

        static func churnOnce(_ departure: Departure, port: UInt16, body: Int) throws {
            let client = try LineClient(port: port)
            switch departure {
            case .orderlyAfterWelcome:
                _ = client.nextLine(timeout: 5)
                client.close()
            case .resetMidLine:
                try client.send(#"{"type":"ping","id":"x"}"#)
                try client.sendRaw(Array(#"{"type":"tap","x":40"#.utf8))
                client.reset()
            case .resetMidDrag:
                let answer = try client.request(#"{"type":"drag","phase":"begin","x":400,"y":300,"body":\#(body),"id":1}"#, id: .int(1))
                guard case .ack? = answer else { throw EndToEndError("drag begin not acked: \(String(describing: answer))") }
                try client.sendRaw(Array(#"{"type":"drag","phase":"move","x":4"#.utf8))
                client.reset()
            case .closeWithUnreadAnswers:
                try client.send(#"{"type":"ping","id":"y"}"#)
                try client.send(#"{"type":"drag","phase":"begin","x":400,"y":300,"body":\#(body)}"#)
                client.close()
            }
        }

        @Test(.timeLimit(.minutes(15))) func churnedConnectionsLeaveNoDescriptorMemoryOrDragBehind() throws {
            let count = Reliability.count("DYN_CHURN", quick: 1_000, soak: 5_000)
            let server = try ServerProcess(["--scene", "push"])
            let observer = try server.connect()
            let scene = try #require(observer.join().scene)
            let body = try #require(scene.bodies.first?.id)
            // Warm-up: the first clients grow the allocator's arenas once; the baseline is taken after them.
            let descriptorsBeforeWarmUp = server.probe.openDescriptors
            for i in 0..<40 { try Self.churnOnce(Departure(rawValue: i % 4)!, port: server.port, body: body) }
            #expect(observer.answersPing())
            let probe = server.probe
            // The warm-up's descriptors close once the server has read their ends: wait until it has.
            _ = Reliability.eventually(timeout: 5) { probe.openDescriptors <= descriptorsBeforeWarmUp }
            let baselineFDs = probe.openDescriptors
            let baselineKB = probe.residentKB

            var failures: [String] = []
            for i in 0..<count {
                do { try Self.churnOnce(Departure(rawValue: i % 4)!, port: server.port, body: body) } catch {
                    failures.append("#\(i): \(error)")
                }
            }
            #expect(failures.isEmpty, "\(failures.count) churn failures, first: \(failures.prefix(3))")
            #expect(observer.answersPing(), "the long-lived client is still served")
            let settled = Reliability.eventually(timeout: 10) { probe.openDescriptors <= baselineFDs }
            let afterFDs = probe.openDescriptors
            let afterKB = probe.residentKB
            print("churn \(count): fds \(baselineFDs) -> \(afterFDs), RSS \(baselineKB) KB -> \(afterKB) KB")
            #expect(settled, "descriptors \(baselineFDs) before, \(afterFDs) after \(count) connections")
            #expect(!Reliability.measuresTiming || afterKB - baselineKB < 5 * 1024, "RSS \(baselineKB) KB before, \(afterKB) KB after")

            let fresh = try server.connect()
            let joined = fresh.join()
            let snapshot = try #require(joined.snapshot)
            #expect(snapshot.drags.isEmpty, "drags left behind: \(snapshot.drags)")
            #expect(snapshot.clients == 2, "only the observer and the fresh client are connected")
            #expect(try fresh.ack(#"{"type":"drag","phase":"begin","x":400,"y":300,"body":\#(body),"id":5}"#, id: 5) != nil,
                    "the body is free to drag")
        }

        @Test(.timeLimit(.minutes(15))) func thousandIdleConnectionsAllGetWelcomeAndTheLastIsAnswered() throws {
            let count = 1_000
            let limit = Reliability.raiseFileLimit(to: 4_096)
            try #require(limit >= UInt64(count + 100), "RLIMIT_NOFILE \(limit) is too low for \(count) connections")
            let server = try ServerProcess(["--max-clients", "2000"])
            let probe = server.probe
            let baselineFDs = probe.openDescriptors
            var clients: [RawSocket] = []
            var welcomed = 0
            for _ in 0..<count {
                let client = try RawSocket(port: server.port)
                if client.waitFor(#"{"type":"welcome""#, timeout: 10) { welcomed += 1 }
                clients.append(client)
            }
            #expect(welcomed == count)
            #expect(probe.openDescriptors == baselineFDs + count)
            #expect(clients[count - 1].answersPing(timeout: 10), "a command on the last connection is answered")
            #expect(clients[count - 1].waitFor(#""clients":\#(count),"#, timeout: 5), "snapshots count \(count) clients")

            // Idle clients send nothing but read what they are sent (one that never reads is a stuck client,
            // covered elsewhere); a different sample answers a ping every 10 s.
            let holdSeconds = Reliability.seconds("DYN_IDLE_SECONDS", quick: 1, soak: 60)
            let start = Date()
            var round = 0
            while Date().timeIntervalSince(start) < holdSeconds {
                for client in clients { _ = client.drain(counting: [], timeout: 0) }
                usleep(200_000)
                let elapsedRounds = Int(Date().timeIntervalSince(start) / 10)
                if elapsedRounds > round || Date().timeIntervalSince(start) >= holdSeconds {
                    round += 1
                    for index in stride(from: round % 97, to: count, by: 97) {
                        #expect(clients[index].answersPing(timeout: 10), "connection \(index) answers in round \(round)")
                    }
                }
            }
            #expect(probe.openDescriptors == baselineFDs + count, "no idle connection was dropped")
            #expect(probe.isAlive)
            clients.removeAll()
            #expect(Reliability.eventually(timeout: 10) { probe.openDescriptors == baselineFDs },
                    "descriptors back to \(baselineFDs), now \(probe.openDescriptors)")
        }
    }
}
