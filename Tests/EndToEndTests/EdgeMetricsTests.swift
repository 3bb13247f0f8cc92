import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// `/metrics` beyond the dyn_* counters (docs/PROTOCOL.md, /metrics): Prometheus' process_* metrics,
    /// HTTP responses by status and pending requests, a series from the start for every command type and
    /// error code, one meaning of "paused" for the gauge, the tick counter and the step histogram, and a tick
    /// counter that counts this process's ticks after a `--state` restore.
    @Suite(.serialized, .timeLimit(.minutes(2)))
    struct EdgeMetricsTests {
        /// Scrapes until `predicate` holds (or the deadline passes); returns the last scrape.
        static func scrape(port: UInt16, timeout: Double = 15, until predicate: (MetricsScrape) -> Bool) throws -> MetricsScrape {
            let deadline = Date().addingTimeInterval(timeout)
            var scrape = try MetricsScrape.fetch(port: port)
            while !predicate(scrape), Date() < deadline { scrape = try MetricsScrape.fetch(port: port) }
            return scrape
        }

        static func has(_ scrape: MetricsScrape, _ line: String) -> Bool {
            scrape.text.split(separator: "\n").contains { $0.hasPrefix(line + " ") }
        }

        @Test(RequiredTool.promtool.trait)
        func theNewSeriesPassPromtool() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            _ = try HTTPReply.get(port: http, "/nowhere")
            _ = try WebSocketClient(port: http).join()
            let scrape = try MetricsScrape.fetch(port: http)
            let (status, output) = try ExternalTool.run(try RequiredTool.promtool.require(), ["check", "metrics"], input: scrape.text)
            #expect(status == 0, "promtool check metrics: \(output)")
            for family in ["process_resident_memory_bytes", "process_virtual_memory_bytes", "process_open_fds", "process_max_fds",
                           "process_cpu_seconds_total", "process_start_time_seconds", "dyn_http_responses_total", "dyn_http_pending",
                           "dyn_http_evictions_total", "dyn_http_timeouts_total"] {
                #expect(scrape.text.contains("# TYPE \(family) "), "\(family) is exposed")
            }
            withExtendedLifetime(server) {}
        }

        @Test func processMetricsAreThisProcesssOwn() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let before = try MetricsScrape.fetch(port: http)
            let now = Date().timeIntervalSince1970
            #expect(before.value("process_resident_memory_bytes") > 1_000_000)
            #expect(before.value("process_virtual_memory_bytes") >= before.value("process_resident_memory_bytes"))
            #expect(before.value("process_max_fds") >= before.value("process_open_fds"))
            #expect(before.value("process_cpu_seconds_total") >= 0)
            let started = before.value("process_start_time_seconds")
            #expect(started > now - 120 && started <= now + 1, "started \(now - started) s ago") // check-tests: not a threshold (a timestamp against the clock, not a duration)
            // The server's own descriptor count, read by the test from /proc, brackets the gauge.
            let clients = try (0..<8).map { _ in try server.connect() }
            for client in clients { _ = client.join() }
            let after = try MetricsScrape.fetch(port: http)
            #expect(after.value("process_open_fds") >= before.value("process_open_fds") + 8, "8 more connections, 8 more descriptors")
            let listed = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/fd").count) ?? -1
            #expect(abs(Double(listed) - after.value("process_open_fds")) <= 3, "/proc/\(server.pid)/fd lists \(listed)")
            withExtendedLifetime((server, clients)) {}
        }

        @Test func everyCommandTypeErrorCodeAndStatusHasASeriesFromTheStart() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let first = try MetricsScrape.fetch(port: http)
            for type in ["hello", "ping", "tap", "push", "drag", "snap", "set", "gravity", "collision", "spawn", "remove", "scene",
                         "subscribe", "attach", "anchor", "detach", "field", "unfield", "velocity", "boundary", "bounds", "group",
                         "ungroup", "pause", "resume", "step"] {
                #expect(Self.has(first, #"dyn_commands_total{type="\#(type)"}"#), "command \(type)")
            }
            for code in ErrorCode.allCases {
                #expect(Self.has(first, #"dyn_errors_total{code="\#(code.rawValue)"}"#), "error \(code.rawValue)")
            }
            for status in [101, 200, 400, 404, 405, 413, 426, 431, 501, 505] {
                #expect(Self.has(first, #"dyn_http_responses_total{code="\#(status)"}"#), "status \(status)")
            }
            _ = try HTTPReply.get(port: http, "/nowhere")
            _ = try HTTPReply.exchange(port: http, "BREW / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try WebSocketClient(port: http).join()
            let second = try MetricsScrape.fetch(port: http)
            for status in ["404", "501", "101"] {
                let series = #"dyn_http_responses_total{code="\#(status)"}"#
                #expect(second.value(series) == first.value(series) + 1, "\(status) counted once")
            }
            #expect(second.value(#"dyn_http_responses_total{code="200"}"#) == first.value(#"dyn_http_responses_total{code="200"}"#) + 1,
                    "the second scrape counts the first")
            withExtendedLifetime(server) {}
        }

        @Test func atRestTicksCountButNoStepIsTimed() throws {
            let server = try ServerProcess(["--scene", "push"])
            let http = try #require(server.httpPort)
            let rest = try Self.scrape(port: http) { $0.value("dyn_world_paused") == 1 }
            #expect(rest.value("dyn_world_paused") == 1, "the push scene comes to rest")
            let later = try Self.scrape(port: http) { $0.value("dyn_ticks_total") >= rest.value("dyn_ticks_total") + 30 }
            #expect(later.value("dyn_ticks_total") >= rest.value("dyn_ticks_total") + 30, "ticks go on at rest")
            #expect(later.value("dyn_step_seconds_count") == rest.value("dyn_step_seconds_count"), "no empty steps are timed")
            #expect(later.value("dyn_world_paused") == 1)
            // A tap wakes it: steps are timed again and the gauge reads 0.
            let client = try server.connect()
            _ = client.join()
            #expect(try client.ack(#"{"type":"tap","x":420,"y":300,"id":1}"#, id: 1) != nil)
            let moving = try Self.scrape(port: http) { $0.value("dyn_step_seconds_count") > later.value("dyn_step_seconds_count") }
            #expect(moving.value("dyn_step_seconds_count") > later.value("dyn_step_seconds_count"))
            withExtendedLifetime(server) {}
        }

        @Test func aHeldWorldIsPausedAndItsTicksStandStill() throws {
            let server = try ServerProcess(["--scene", "push", "--held"])
            let http = try #require(server.httpPort)
            let client = try server.connect()
            _ = client.join()
            let first = try MetricsScrape.fetch(port: http)
            #expect(first.value("dyn_world_paused") == 1)
            // Round trips through the loop: a ping's answer proves ticks had every chance to run meanwhile.
            for _ in 0..<20 { _ = try client.currentTick() }
            let second = try MetricsScrape.fetch(port: http)
            #expect(second.value("dyn_ticks_total") == first.value("dyn_ticks_total"))
            #expect(second.value("dyn_step_seconds_count") == first.value("dyn_step_seconds_count"))
            withExtendedLifetime(server) {}
        }

        @Test func afterAStateRestoreTheTickCounterCountsThisProcesssTicks() throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("dyn-edge-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("world.json").path
            let original = try ServerProcess(["--scene", "push", "--tick-hz", "1000", "--snapshot-hz", "10", "--state", file])
            let originalHTTP = try #require(original.httpPort)
            _ = try Self.scrape(port: originalHTTP) { $0.value("dyn_ticks_total") >= 2_000 }
            original.signal(SIGTERM)
            #expect(original.waitForExit(timeout: 10) != nil)

            let restored = try ServerProcess(["--scene", "push", "--state", file])
            let http = try #require(restored.httpPort)
            let log = restored.stderr
            let tickText = try #require(log.range(of: #"tick (\d+)"#, options: .regularExpression).map { String(log[$0].dropFirst(5)) })
            let restoredTick = try #require(Double(tickText))
            #expect(restoredTick >= 2_000)
            let client = try restored.connect()
            _ = client.join()
            let before = Double(try #require(try client.currentTick()))
            let scrape = try MetricsScrape.fetch(port: http)
            let after = Double(try #require(try client.currentTick()))
            let counted = scrape.value("dyn_ticks_total")
            #expect(counted >= before - restoredTick && counted <= after - restoredTick,
                    "dyn_ticks_total \(counted) counts from the restored tick \(restoredTick) (ticks \(before)...\(after))")
            withExtendedLifetime(restored) {}
        }
    }
}
