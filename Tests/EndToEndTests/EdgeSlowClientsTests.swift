import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// The HTTP port under a crowd of slow connections (docs/PROTOCOL.md, HTTP: the pending-request pool):
    /// the crowd can only delay itself — fresh page loads, `/healthz` and WebSocket upgrades are answered
    /// while it trickles, the oldest incomplete requests are evicted, the eviction is logged, and
    /// `dyn_http_pending` shows the pool.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct EdgeSlowClientsTests {
        /// A fresh `GET path` from `source`: its status (nil when unanswered) and how long the answer took.
        static func fresh(_ path: String, port: UInt16, from source: String) -> (status: Int?, seconds: Double) {
            let start = Date()
            let reply = try? EdgeSocket.exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: fresh\r\n\r\n", from: source, timeout: 10)
            return (reply?.reply?.status, Date().timeIntervalSince(start))
        }

        @Test func aCrowdOf1100SlowConnectionsLocksNobodyOut() throws {
            Reliability.raiseFileLimit(to: 8192)
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let crowdSize = Reliability.count("DYN_EDGE_CROWD", quick: 1_100, soak: 1_100)
            let crowd = SlowCrowd(port: http, size: crowdSize, reconnect: false)
            crowd.start()
            defer { crowd.stop() }

            let during = try MetricsScrape.fetch(port: http)
            let pending = during.value("dyn_http_pending")
            #expect(pending >= 64 && pending <= 1024, "the crowd holds at most its peer's share: \(pending) pending")
            #expect(during.value("dyn_http_evictions_total") >= Double(crowdSize - 1024 / 8 - 50),
                    "the crowd's oldest requests made room: \(during.value("dyn_http_evictions_total")) evicted")

            var answered = 0, asked = 0
            for round in 0..<10 {
                for (path, source) in [("/healthz", "127.0.0.1"), ("/healthz", "127.0.0.2"), ("/", round.isMultiple(of: 2) ? "127.0.0.1" : "127.0.0.2")] {
                    asked += 1
                    if Self.fresh(path, port: http, from: source).status == 200 { answered += 1 }
                }
            }
            #expect(answered == asked, "\(answered) of \(asked) fresh requests answered during the crowd")
            let web = try WebSocketClient(port: http)
            #expect(web.join().snapshot != nil, "a WebSocket upgrade works during the crowd")
            #expect(server.stderr.contains("evicted"), "the eviction is logged")
            // The crowd's readers see the server's closes a little after the evictions counted above.
            let evictedAtLeast = crowdSize - 1024 / 8 - 50
            _ = waitUntil(timeout: 15) { crowd.closedByServer >= evictedAtLeast }
            #expect(crowd.closedByServer >= evictedAtLeast, "\(crowd.closedByServer) crowd connections closed")

            crowd.stop()
            var after = try MetricsScrape.fetch(port: http)
            let deadline = Date().addingTimeInterval(15)
            while after.value("dyn_http_pending") > 0, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1) // polling a gauge, with a deadline
                after = try MetricsScrape.fetch(port: http)
            }
            #expect(after.value("dyn_http_pending") == 0, "the gauge falls back once the crowd is gone")
            withExtendedLifetime(server) {}
        }

        @Test func aRequestNotCompleteInTimeIsClosed() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let slow = try EdgeSocket(port: http)
            try slow.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
            let (bytes, ending) = slow.readToEnd(timeout: 20)
            #expect(ending == .fin, "the server ends the stalled request (\(ending))")
            #expect(bytes.isEmpty)
            #expect(try MetricsScrape.fetch(port: http).value("dyn_http_timeouts_total") == 1)
            withExtendedLifetime(server) {}
        }

        /// `dyn_http_evictions_total + dyn_http_timeouts_total`, scraped from 127.0.0.2 (a peer the crowd does
        /// not share places with, so the scrape itself is never evicted).
        static func closedUnanswered(port: UInt16) throws -> Double {
            let (reply, _) = try EdgeSocket.exchange(port: port, "GET /metrics HTTP/1.1\r\nHost: fresh\r\n\r\n", from: "127.0.0.2", timeout: 30)
            let body = try #require(reply, "GET /metrics from 127.0.0.2 is answered during the crowd").body
            let metrics = MetricsScrape(text: body)
            return metrics.value("dyn_http_evictions_total") + metrics.value("dyn_http_timeouts_total")
        }

        @Test func freshClientsAreAnsweredOrCountedEvictedWhileTheCrowdKeepsReconnecting() throws {
            Reliability.raiseFileLimit(to: 8192)
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let crowd = SlowCrowd(port: http, size: Reliability.count("DYN_EDGE_CROWD", quick: 1_100, soak: 1_100), reconnect: true)
            crowd.start()
            defer { crowd.stop() }
            // A number of fresh requests, not a window of time: each one is judged by how it ended, never by how
            // long it took (that is DYN_TIMING's). Fresh requests alternate between the crowd's own address and
            // another peer's.
            let rounds = Reliability.count("DYN_EDGE_CROWD_ROUNDS", quick: 60, soak: 600)
            let countedBefore = try Self.closedUnanswered(port: http)
            var answered: [String: Int] = [:], closedUnanswered: [String: Int] = [:], hanging: [String: Int] = [:]
            var latencies: [String: [Double]] = [:]
            for round in 1...rounds {
                let path = round.isMultiple(of: 4) || round % 4 == 1 ? "/" : "/healthz"
                let source = round.isMultiple(of: 2) ? "127.0.0.1" : "127.0.0.2"
                let start = Date()
                let (reply, ending) = try EdgeSocket.exchange(port: http, "GET \(path) HTTP/1.1\r\nHost: fresh\r\n\r\n", from: source, timeout: 30)
                if reply?.status == 200 {
                    answered[source, default: 0] += 1
                    latencies[source, default: []].append(Date().timeIntervalSince(start))
                } else if reply == nil && ending != .timeout {
                    closedUnanswered[source, default: 0] += 1
                } else {
                    hanging[source, default: 0] += 1
                }
            }
            // Read before the scrape: every crowd connection seen closed by then was counted before its close.
            let crowdClosed = crowd.closedByServer
            let countedAfter = try Self.closedUnanswered(port: http)
            print("slow crowd (reconnecting, \(crowdClosed) crowd connections closed): answered \(answered), closed unanswered \(closedUnanswered), left hanging \(hanging); the server counted \(countedAfter - countedBefore) evictions and timeouts meanwhile")
            #expect(hanging.isEmpty, "every fresh request is answered or closed, never left hanging: \(hanging)")
            #expect(answered["127.0.0.2"] == rounds / 2, "another peer's requests are never evicted by the crowd: \(answered)")
            // The crowd's own address shares its 128 places with the crowd: a fresh request there can be evicted
            // when 128 crowd reconnections are accepted before its bytes are read; every such close is one the
            // server counted (and logged), never a request silently dropped.
            let unanswered = Double(closedUnanswered["127.0.0.1"] ?? 0)
            #expect(countedAfter - countedBefore >= unanswered,
                    "\(unanswered) fresh requests closed unanswered, \(countedAfter - countedBefore) evictions and timeouts counted")
            #expect((answered["127.0.0.1"] ?? 0) > 0, "the crowd's own address is still answered: \(answered)")
            // So is every crowd connection the server closed (1 100 slow connections for 128 places: hundreds).
            #expect(crowdClosed > 0, "the crowd outgrew its address's places")
            #expect(countedAfter >= Double(crowdClosed) + unanswered,
                    "\(crowdClosed) crowd connections and \(unanswered) fresh requests closed unanswered, \(countedAfter) evictions and timeouts counted")
            if Reliability.measuresTiming {
                for (source, times) in latencies {
                    let total = (answered[source] ?? 0) + (closedUnanswered[source] ?? 0)
                    let prompt = times.filter { $0 < 1 }.count
                    #expect(Double(prompt) >= 0.95 * Double(total), "from \(source): \(prompt) of \(total) within 1 s")
                    if source == "127.0.0.1" {
                        #expect(Double(answered[source] ?? 0) >= 0.9 * Double(total), "\(answered[source] ?? 0) of \(total) answered from the crowd's address")
                    }
                }
            }
            #expect(crowd.closedByServer > 0, "the crowd was evicted and came back")
            withExtendedLifetime(server) {}
        }
    }
}
