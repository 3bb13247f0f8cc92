import Foundation
import Testing

extension EndToEnd {
    /// The metrics of a `--cluster` server (docs/PROTOCOL.md, Metrics; docs/DEPLOY.md) pass `promtool check
    /// metrics` with the fleet's families present, against a real `redis-server`, after a room was created and
    /// a join redirected, so every labelled series has moved at least once.
    @Suite(.serialized, .timeLimit(.minutes(2)), RequiredTool.redisServer.trait, RequiredTool.promtool.trait)
    struct ClusterMetricsTests {
        @Test func aClusterServersMetricsPassPromtool() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let alice = try owner.connect()
            _ = alice.join()
            #expect(try alice.joinAnswer("lab", id: 1)?.ackFields != nil, "the owner creates lab")
            let bob = try other.connect()
            _ = bob.join()
            #expect(try bob.joinAnswer("lab", id: 1)?.redirect != nil, "the other server redirects to lab's owner")
            for server in [owner, other] {
                let scrape = try MetricsScrape.fetch(port: try #require(server.httpPort))
                let (status, output) = try ExternalTool.run(try RequiredTool.promtool.require(), ["check", "metrics"], input: scrape.text)
                #expect(status == 0, "promtool check metrics on a --cluster server: \(output)\n\(scrape.text)")
                for family in ["dyn_fleet_redis_up", "dyn_fleet_rooms_owned", "dyn_fleet_redirects_total", "dyn_fleet_rooms_lost_total",
                               "dyn_nonfinite_values_total"] {
                    #expect(scrape.text.contains("# TYPE \(family) "), "\(family) is exposed with --cluster")
                }
                #expect(scrape.value("dyn_fleet_redis_up") == 1)
                #expect(scrape.value("dyn_nonfinite_values_total") == 0)
            }
            let redirected = try MetricsScrape.fetch(port: try #require(other.httpPort))
            #expect(redirected.value(#"dyn_fleet_redirects_total{via="join"}"#) == 1)
            #expect(try MetricsScrape.fetch(port: try #require(owner.httpPort)).value("dyn_fleet_rooms_owned") == 1)
            withExtendedLifetime((redis, owner, other, alice, bob)) {}
        }
    }
}
