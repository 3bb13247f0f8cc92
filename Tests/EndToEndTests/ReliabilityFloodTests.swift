import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Floods: a client sending 10 000 commands per second is held to its token bucket (one
    /// `rate_limited` error, then read at its rate), while another client's commands are all acked and its snapshots keep coming
    /// at (at least 90% of) `snapshot_hz`.
    @Suite(.serialized)
    struct ReliabilityFloodTests {
        /// What a well-behaved client saw during a window: its answers and when snapshots arrived.
        struct ObservedWindow {
            /// Taps sent.
            var sent = 0
            var acked = 0
            var refused: [ProtocolError] = []
            var snapshotArrivals: [Date] = []
            var ticks: [UInt64] = []

            /// Snapshots per second after the first half second (the join burst), and the span measured;
            /// zeros when fewer than two arrived then.
            var steadyRate: (rate: Double, span: Double) {
                guard let first = snapshotArrivals.first else { return (0, 0) }
                let measured = snapshotArrivals.filter { $0 >= first.addingTimeInterval(0.5) }
                guard measured.count > 1, let a = measured.first, let b = measured.last else { return (0, 0) }
                let span = b.timeIntervalSince(a)
                return (Double(measured.count - 1) / max(span, 0.001), span)
            }
        }

        /// Taps every 200 ms, reading everything, until it sent `taps` taps and `done()` holds (or 60 s passed),
        /// and reports what came back: a window measured in what happened, not in seconds.
        static func observe(_ client: LineClient, taps: Int, until done: () -> Bool) throws -> ObservedWindow {
            var window = ObservedWindow()
            let start = Date()
            var nextTap = start
            var tapID = 1000
            while tapID - 1000 < taps || !done(), Date().timeIntervalSince(start) < 60 {
                if Date() >= nextTap {
                    tapID += 1
                    try client.send(#"{"type":"tap","x":400,"y":300,"mode":"instantaneous","id":\#(tapID)}"#)
                    nextTap = nextTap.addingTimeInterval(0.2)
                }
                guard let line = client.nextLine(timeout: max(0.001, nextTap.timeIntervalSinceNow)) else { continue }
                // Snapshots are only timed and their tick read: decoding a 1 000-body snapshot in a debug test
                // build takes longer than the server needs to send the next one.
                if line.hasPrefix(#"{"type":"snapshot","tick":"#) {
                    window.snapshotArrivals.append(Date())
                    let digits = line.utf8.dropFirst(26).prefix { $0 >= 0x30 && $0 <= 0x39 }
                    window.ticks.append(UInt64(String(decoding: digits, as: UTF8.self)) ?? 0)
                    continue
                }
                switch ServerMessage.decode(line) {
                case .ack?: window.acked += 1
                case .error(let error)?: window.refused.append(error)
                default: break
                }
            }
            window.sent = tapID - 1000
            // Answers to the last taps may still be on their way (waited for, with a deadline).
            let deadline = Date().addingTimeInterval(15)
            while window.acked + window.refused.count < tapID - 1000, Date() < deadline,
                  let line = client.nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
                guard !line.hasPrefix(#"{"type":"snapshot""#) else { continue }
                if case .ack? = ServerMessage.decode(line) { window.acked += 1 }
                if case let .error(error)? = ServerMessage.decode(line) { window.refused.append(error) }
            }
            window.acked = min(window.acked, tapID - 1000)
            return window
        }

        @Test(.timeLimit(.minutes(15))) func floodingClientIsRateLimitedWhileAnotherKeepsItsAcksAndSnapshotRate() throws {
            let seconds = 4.0 // the least the observer's 20 taps take, for DYN_TIMING's span
            let server = try ServerProcess(["--scene", "default"])
            let observer = try server.connect()
            _ = try #require(observer.join().snapshot)
            let flooder = try Flooder(port: server.port, line: #"{"type":"tap","x":300,"y":200,"id":1}"#,
                                      linesPerSecond: 10_000)
            let started = Date()
            flooder.start()
            // Until the flood is four bursts deep and the server has told the flooder it is over its rate.
            let window = try Self.observe(observer, taps: 20) { flooder.counters["sent"] >= 4 * 240 && flooder.counters["rate_limited"] >= 1 }
            flooder.stop()
            // The bucket refills by the clock, so its bound is in the flood's own wall time (a slow machine only
            // lowers the count).
            let flooded = Date().timeIntervalSince(started)

            let sent = flooder.counters["sent"]
            let limited = flooder.counters["rate_limited"]
            let flooderAcks = flooder.counters["acks"]
            #expect(sent >= 4 * 240, "the flooder sent \(sent) lines")
            // One continuous burst over the rate: one rate_limited error, not one per line; the rest wait.
            #expect(limited == 1, "\(limited) rate_limited errors for \(sent) lines")
            // The bucket: burst 240 + 120/s over the flood (plus the drain time), never more.
            #expect(flooderAcks <= 240 + Int(120 * (flooded + 0.5)), "\(flooderAcks) flood commands acked in \(flooded) s")  // check-tests: not a threshold (a slower flood only raises the bound)
            #expect(flooderAcks >= 240, "the burst is let through")

            #expect(window.refused.isEmpty, "observer refused: \(window.refused.map(\.code.rawValue))")
            #expect(window.sent > 0 && window.acked == window.sent, "observer: \(window.sent) taps, \(window.acked) acked")
            #expect(zip(window.ticks, window.ticks.dropFirst()).allSatisfy { $0 < $1 }, "ticks increase strictly")
            let (rate, span) = window.steadyRate
            #expect(!Reliability.measuresTiming || span >= seconds - 1.5, "snapshots kept coming for \(span) s")
            #expect(!Reliability.measuresTiming || rate >= 0.9 * 30, "observer snapshot rate \(rate)/s, snapshot_hz 30")
            #expect(observer.answersPing())
            #expect(server.probe.isAlive)
        }

        @Test(.timeLimit(.minutes(15))) func clientWritingAsFastAsTCPAllowsDoesNotStarveTheOthers() throws {
            // A client that never pauses (blocking sends of 1 000-line batches, 100 000 lines/s offered):
            // libuv reads a ready stream up to 32 times in a row, yet ticks, snapshots and the other client
            // must keep their pace.
            let server = try ServerProcess(["--scene", "default"])
            let observer = try server.connect()
            _ = try #require(observer.join().snapshot)
            let flooder = try Flooder(port: server.port, line: #"{"type":"tap","x":300,"y":200,"id":1}"#,
                                      linesPerSecond: 100_000)
            flooder.start()
            let window = try Self.observe(observer, taps: 20) { flooder.counters["sent"] >= 2_000 && flooder.counters["rate_limited"] >= 1 }
            flooder.stop()
            #expect(flooder.counters["rate_limited"] == 1, "the flooder is told once that it is over its rate")
            #expect(window.refused.isEmpty)
            #expect(window.sent > 0 && window.acked == window.sent, "observer: \(window.sent) taps, \(window.acked) acked")
            #expect(window.ticks.count >= 2 && zip(window.ticks, window.ticks.dropFirst()).allSatisfy { $0 < $1 }, "ticks increase strictly")
            let rate = window.steadyRate.rate
            #expect(!Reliability.measuresTiming || rate >= 0.9 * 30, "observer snapshot rate \(rate)/s beside a line-rate flooder")
            #expect(observer.answersPing())
        }
    }
}
