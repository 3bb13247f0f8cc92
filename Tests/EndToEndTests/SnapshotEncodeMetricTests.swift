import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `dyn_snapshot_encode_seconds_total{mode}` (docs/PROTOCOL.md, /metrics): the thread CPU time a real
    /// server spends encoding each mode's snapshots, read from its /metrics. Every mode has its series from the
    /// start; a mode's grows while a client of that mode is subscribed and stands still while none is.
    @Suite(.serialized)
    struct SnapshotEncodeMetricTests {
        private static func series(_ mode: String) -> String { #"dyn_snapshot_encode_seconds_total{mode="\#(mode)"}"# }

        /// Each mode's encode seconds in one scrape.
        struct EncodeSeconds: Equatable {
            var full: Double
            var compact: Double
            var packed: Double
        }

        private static func encodeSeconds(_ http: UInt16) throws -> EncodeSeconds {
            let scrape = try MetricsScrape.fetch(port: http)
            return EncodeSeconds(full: scrape.value(series("full")), compact: scrape.value(series("compact")),
                                 packed: scrape.value(series("packed")))
        }

        /// Reads until `count` messages matched `predicate` (within a deadline); returns how many did.
        private static func read(_ client: LineClient, _ count: Int, _ predicate: (ServerMessage) -> Bool) -> Int {
            var seen = 0
            while seen < count, client.waitFor(timeout: 20, predicate) != nil { seen += 1 }
            return seen
        }

        @Test(.timeLimit(.minutes(3))) func eachModesEncodeTimeGrowsOnlyWhileAClientOfThatModeIsSubscribed() throws {
            let server = try ServerProcess(["--scene", "default"])
            let http = try #require(server.httpPort)
            let client = try server.connect()
            _ = client.join()
            #expect(try client.subscribe(#""snapshots":"none""#, id: 1) != nil)
            let quiet = try Self.encodeSeconds(http)
            // The world ticks on with nobody taking snapshots: no mode encodes anything.
            let ticks = try MetricsScrape.fetch(port: http).value("dyn_ticks_total")
            let deadline = Date().addingTimeInterval(30)
            while try MetricsScrape.fetch(port: http).value("dyn_ticks_total") < ticks + 60, Date() < deadline {
                _ = client.next(timeout: 0.1)
            }
            #expect(try Self.encodeSeconds(http) == quiet, "no subscriber, no encoding")

            #expect(try client.subscribe(#""snapshots":"packed""#, id: 2) != nil)
            #expect(Self.read(client, 5) { if case .packed = $0 { return true } else { return false } } == 5)
            let packed = try Self.encodeSeconds(http)
            #expect(packed.packed > quiet.packed, "a packed client's frames are encoded")
            #expect(packed.compact == quiet.compact && packed.full == quiet.full)

            #expect(try client.subscribe(#""snapshots":"compact""#, id: 3) != nil)
            #expect(Self.read(client, 2) { if case .frame = $0 { return true } else { return false } } == 2)
            let switched = try Self.encodeSeconds(http)
            #expect(Self.read(client, 5) { if case .frame = $0 { return true } else { return false } } == 5)
            let compact = try Self.encodeSeconds(http)
            #expect(compact.compact > switched.compact, "a compact client's frames are encoded")
            #expect(compact.packed == switched.packed, "packed stands still without a packed client")
            #expect(compact.full == quiet.full)
            withExtendedLifetime(server) {}
        }
    }
}
