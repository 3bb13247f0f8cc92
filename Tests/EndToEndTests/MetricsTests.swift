import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// `GET /metrics` (docs/PROTOCOL.md, HTTP): Prometheus text that `promtool check metrics` accepts, whose
    /// counters move as clients connect, send commands and get errors.
    @Suite(.serialized)
    struct MetricsTests {
        @Test(.timeLimit(.minutes(5)), RequiredTool.promtool.trait)
        func liveScrapePassesPromtoolCheckMetrics() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            // Traffic on both transports first, so that every labelled family has samples.
            let tcp = try server.connect()
            _ = tcp.join()
            try tcp.send("not json")
            #expect(tcp.nextError()?.code == .badJSON)
            let web = try WebSocketClient(port: http)
            _ = web.join()
            #expect(try web.request(#"{"type":"tap","x":500,"y":300,"id":1}"#, id: .int(1)) != nil)
            let scrape = try MetricsScrape.fetch(port: http)
            let (status, output) = try ExternalTool.run(try RequiredTool.promtool.require(), ["check", "metrics"], input: scrape.text)
            #expect(status == 0, "promtool check metrics: \(output)\n\(scrape.text)")
            for family in ["dyn_clients", "dyn_connections_total", "dyn_ticks_total", "dyn_step_seconds", "dyn_snapshot_bytes_total",
                           "dyn_commands_total", "dyn_errors_total", "dyn_bodies", "dyn_world_paused"] {
                #expect(scrape.text.contains("# TYPE \(family) "), "\(family) is exposed")
            }
            withExtendedLifetime(server) {}
        }

        @Test(.timeLimit(.minutes(5))) func countersMoveWithConnectionsCommandsAndErrors() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let tcp = try server.connect()
            _ = tcp.join()
            let before = try MetricsScrape.fetch(port: http)
            #expect(before.value("dyn_clients") == 1)
            #expect(before.value("dyn_bodies") == 1)
            #expect(before.value(#"dyn_connections_total{transport="tcp"}"#) == 1)

            let web = try WebSocketClient(port: http)
            _ = web.join()
            #expect(try web.request(#"{"type":"tap","x":500,"y":300,"id":1}"#, id: .int(1)) != nil)
            #expect(try tcp.ack(#"{"type":"tap","x":300,"y":300,"id":2}"#, id: 2) != nil)
            try tcp.send("{broken")
            #expect(tcp.nextError()?.code == .badJSON)
            #expect(try tcp.error(#"{"type":"remove","body":999999,"id":3}"#, id: .int(3))?.code == .unknownBody)
            _ = tcp.snapshots(for: 0.3)

            let after = try MetricsScrape.fetch(port: http)
            #expect(after.value("dyn_clients") == 2)
            #expect(after.value(#"dyn_connections_total{transport="websocket"}"#) == before.value(#"dyn_connections_total{transport="websocket"}"#) + 1)
            #expect(after.value(#"dyn_commands_total{type="tap"}"#) == before.value(#"dyn_commands_total{type="tap"}"#) + 2)
            #expect(after.value(#"dyn_commands_total{type="remove"}"#) == before.value(#"dyn_commands_total{type="remove"}"#) + 1)
            #expect(after.value(#"dyn_errors_total{code="bad_json"}"#) == before.value(#"dyn_errors_total{code="bad_json"}"#) + 1)
            #expect(after.value(#"dyn_errors_total{code="unknown_body"}"#) == before.value(#"dyn_errors_total{code="unknown_body"}"#) + 1)
            #expect(after.value("dyn_ticks_total") > before.value("dyn_ticks_total"))
            #expect(after.value("dyn_step_seconds_count") > before.value("dyn_step_seconds_count"))
            #expect(after.value("dyn_snapshot_bytes_total") > before.value("dyn_snapshot_bytes_total"), "the taps set the square moving")
            #expect(after.value("dyn_world_paused") == 0, "the tapped square is moving")
            withExtendedLifetime(server) {}
        }
    }
}
