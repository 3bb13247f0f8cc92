import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// A fleet of three real servers sharing rooms through a real `redis-server` started here
    /// (docs/PROTOCOL.md, A fleet of servers; docs/DEPLOY.md): one owner per room, redirects (the message,
    /// `dynclient` following it, `/r/NAME` 307), the fleet-wide list, failover after SIGKILL with the state
    /// of at most one interval ago, leases released at SIGTERM, and Redis going away and coming back.
    @Suite(.serialized, .timeLimit(.minutes(1)), RequiredTool.redisServer.trait)
    struct FleetTests {
        @Test func eachRoomHasOneOwnerAndJoinsElsewhereAreRedirected() throws {
            let redis = try RedisServerProcess()
            let servers = try (0..<3).map { _ in try fleetServer(redis) }
            let clients = try servers.map { server -> LineClient in
                let client = try server.connect()
                _ = client.join()
                return client
            }
            let created = try #require(try clients[0].joinAnswer("lab", id: 1)?.ackFields)
            #expect(created.first { $0.0 == "created" }?.1 == .bool(true))
            for (index, client) in clients.enumerated().dropFirst() {
                let answer = try #require(try client.joinAnswer("lab", id: 2))
                let redirect = try #require(answer.redirect, "server \(index) answered \(answer) instead of a redirect")
                #expect(redirect.room == "lab" && redirect.host == "127.0.0.1" && redirect.port == Int(servers[0].port))
                #expect(redirect.http == "http://127.0.0.1:\(try #require(servers[0].httpPort))/r/lab")
                // The client stays where it was: its next command still acts in main.
                let stayed = try #require(try client.ack(#"{"type":"rooms","id":3}"#, id: 3))
                #expect(stayed.isEmpty == false)
            }
            // A room made through the second server is its own; every server lists both with their owners.
            #expect(try clients[1].joinAnswer("studio", id: 4)?.ackFields?.first { $0.0 == "created" }?.1 == .bool(true))
            let owners = ["lab": "127.0.0.1:\(servers[0].port)", "studio": "127.0.0.1:\(servers[1].port)"]
            for server in servers {
                let httpPort = try #require(server.httpPort)
                let listed = waitUntil(timeout: 5) {
                    let rooms = (try? fleetRooms(port: httpPort)) ?? nil
                    return rooms?["lab"] == owners["lab"] && rooms?["studio"] == owners["studio"]
                }
                let seen = (try? fleetRooms(port: httpPort)) ?? nil
                #expect(listed, "GET /rooms on \(server.port): \(String(describing: seen))")
            }
            let viaCommand = try #require(try clients[2].ack(#"{"type":"rooms","id":5}"#, id: 5))
            guard case .array(let entries)? = viaCommand.first(where: { $0.0 == "rooms" })?.1 else {
                Issue.record("no rooms in \(viaCommand)")
                return
            }
            let labEntry = entries.first { $0["name"]?.string == "lab" }
            #expect(labEntry?["owner"]?.string == owners["lab"])
            #expect(entries.first { $0["name"]?.string == "main" }?["owner"]?.string == "127.0.0.1:\(servers[2].port)",
                    "main is each server's own lobby")
            // `/r/NAME`: the owner serves the page, the others answer 307 to it.
            let ownerHTTP = try #require(servers[0].httpPort)
            #expect(try HTTPReply.get(port: ownerHTTP, "/r/lab")?.status == 200)
            // Two servers asked for a new room at the same moment: one creates it, the other redirects there.
            try clients[0].send(#"{"type":"join","id":8,"room":"race"}"#)
            try clients[2].send(#"{"type":"join","id":8,"room":"race"}"#)
            let raced = try [clients[0], clients[2]].map { client in
                try #require(client.joinReply(id: 8), "no answer to the raced join")
            }
            let winners = raced.filter { $0.ackFields?.contains { $0.0 == "created" && $0.1 == .bool(true) } == true }
            #expect(winners.count == 1, "\(raced)")
            let loserRedirect = raced.compactMap(\.redirect).first
            #expect(loserRedirect?.room == "race" && raced.compactMap(\.redirect).count == 1)
            let winnerPort = raced[0].ackFields != nil ? servers[0].port : servers[2].port
            #expect(loserRedirect?.port == Int(winnerPort))
            let thirdHTTP = try #require(servers[2].httpPort)
            let moved = try #require(try HTTPReply.get(port: thirdHTTP, "/r/lab"))
            #expect(moved.status == 307)
            #expect(moved.headers["location"] == "http://127.0.0.1:\(ownerHTTP)/r/lab")
            // The fleet's metrics: the third server redirected its client's join of lab (and of race when it
            // lost it) and the /r/lab request; the second owns studio; Redis answers.
            let third = try MetricsScrape.fetch(port: thirdHTTP)
            #expect(third.value(#"dyn_fleet_redirects_total{via="join"}"#) == (raced[1].redirect != nil ? 2 : 1))
            #expect(third.value(#"dyn_fleet_redirects_total{via="http"}"#) == 1)
            #expect(third.value("dyn_fleet_redis_up") == 1)
            let second = try MetricsScrape.fetch(port: try #require(servers[1].httpPort))
            #expect(second.value("dyn_fleet_rooms_owned") == 1, "studio")
            #expect(second.value("dyn_fleet_rooms_lost_total") == 0)
            withExtendedLifetime((redis, servers, clients)) {}
        }

        @Test func dynclientFollowsARedirectToTheOwner() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let maker = try owner.connect()
            _ = maker.join()
            _ = try #require(try maker.joinAnswer("lab", id: 1)?.ackFields)
            let run = try HeadlessRun.run(["--port", String(other.port), "--headless", "--room", "lab", "--linger", "300"],
                                          stdin: "")
            let messages = run.stdoutLines.compactMap { ServerMessage.decode($0) }
            let welcomes = messages.compactMap { if case .welcome(let w) = $0 { w } else { nil } }
            #expect(messages.contains { $0.redirect?.port == Int(owner.port) }, "no redirect in \(run.stdoutLines.prefix(6))")
            #expect(welcomes.count == 2, "the client connects to the owner after the redirect")
            let joined = messages.compactMap(\.ackFields).first { $0.contains { $0.0 == "client" } && $0.contains { $0.0 == "room" } }
            #expect(joined?.first { $0.0 == "room" }?.1 == .string("lab"))
            // It is in the owner's lab, with the client that made it: two clients in the room's snapshots.
            let lastScene = try #require(messages.lastIndex { if case .scene = $0 { true } else { false } })
            let roomSnapshot = messages[lastScene...].compactMap { if case .snapshot(let s) = $0 { s } else { nil } }.first
            #expect(roomSnapshot?.clients == 2, "\(run.stdoutLines.suffix(4))")
            withExtendedLifetime((redis, owner, other, maker)) {}
        }

        @Test(RequiredTool.chromium.trait)
        func thePageFollowsARedirectToTheOwnersPage() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let maker = try owner.connect()
            _ = maker.join()
            _ = try #require(try maker.joinAnswer("lab", id: 1)?.ackFields)
            let otherHTTP = try #require(other.httpPort)
            let browser = try HeadlessChromium(binary: try RequiredTool.chromium.require(), url: "http://127.0.0.1:\(otherHTTP)/")
            let open = Reliability.eventually(timeout: 20) { (try? browser.evaluate("dyn.state")) as? String == "open" }
            #expect(open, "the page never connected")
            // The page asks the other server for lab: the redirect takes it to the owner's page for the room.
            _ = try browser.evaluate(#"send({type: "join", room: "lab", id: "j"})"#)
            let ownerPage = "http://127.0.0.1:\(try #require(owner.httpPort))/r/lab"
            let here = "location.origin + location.pathname"
            let moved = Reliability.eventually(timeout: 20) { (try? browser.evaluate(here)) as? String == ownerPage }
            let at = (try? browser.evaluate("location.href")) as? String
            #expect(moved, "the page is at \(at ?? "?"), not \(ownerPage)")
            // It remembers where it started (to go back there if the owner dies); the redirect row ended.
            #expect(at?.contains("from=http%3A%2F%2F127.0.0.1%3A\(otherHTTP)") == true, "\(at ?? "?")")
            #expect(Reliability.eventually(timeout: 20) { ((try? browser.evaluate("location.search")) as? String)?.contains("hops=") == false },
                    "the redirect row never ended: \(at ?? "?")")
            withExtendedLifetime((redis, maker)) {}
        }

        @Test func aKilledOwnersRoomsComeBackElsewhereWithTheirState() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let maker = try owner.connect()
            _ = maker.join()
            _ = try #require(try maker.joinAnswer("lab", id: 1)?.ackFields)
            let spawned = try #require(try maker.ack(#"{"type":"spawn","shape":"rect","width":30,"height":30,"x":200,"y":100,"id":2}"#, id: 2))
            let body = try #require(spawned.first { $0.0 == "body" }?.1.number)
            // The state reaches Redis within one --state-interval (0.5 s): the body is in the saved state.
            let saved = waitUntil(timeout: 5) {
                let got = try? ExternalTool.run(try #require(ExternalTool.find("redis-cli")),
                                                ["-p", String(redis.port), "GET", "dyn:state:lab"])
                return got?.output.contains("\"id\":\(Int(body))") == true
            }
            #expect(saved, "the state with body \(Int(body)) never reached Redis")
            let probe = try other.connect()
            _ = probe.join()
            owner.signal(SIGKILL)
            _ = owner.waitForExit(timeout: 5)
            let killed = Date()
            var answer: ServerMessage?
            var attempt = 10
            let usable = waitUntil(timeout: 12) {
                attempt += 1
                answer = try? probe.joinAnswer("lab", id: attempt, timeout: 2)
                return answer?.ackFields != nil
            }
            let seconds = Date().timeIntervalSince(killed)
            #expect(usable, "lab never came back: \(String(describing: answer))")
            // SPEC Part J: usable again within 6 s of the SIGKILL (the lease is 5 s). The wait above bounds it
            // generously in `make test`; the 6 s itself is judged under DYN_TIMING (`make soak`).
            #expect(!Reliability.measuresTiming || seconds < 6.5, "lab came back after \(seconds) s")
            print("fleet failover: lab usable through another server \(seconds) s after the owner's SIGKILL")
            #expect(answer?.ackFields?.first { $0.0 == "created" }?.1 == .bool(false))
            let scene = try #require(probe.lastScene)
            #expect(scene.bodies.contains { $0.id == Int(body) }, "the same ids: body \(Int(body)) survived")
            withExtendedLifetime((redis, other, maker)) {}
        }

        @Test func aStalledOwnerCannotTakeBackARoomClaimedMeanwhile() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let member = try owner.connect()
            _ = member.join()
            _ = try #require(try member.joinAnswer("lab", id: 1)?.ackFields)
            let probe = try other.connect()
            _ = probe.join()
            // The owner stalls past its lease (stopped), and the other server claims lab meanwhile.
            owner.signal(SIGSTOP)
            var attempt = 10
            let claimed = waitUntil(timeout: 12) {
                attempt += 1
                return (try? probe.joinAnswer("lab", id: attempt, timeout: 2))??.ackFields != nil
            }
            owner.signal(SIGCONT)
            #expect(claimed, "the other server never claimed lab")
            // Back, the old owner finds the lease taken: it drops lab and sends its member to the new owner.
            let redirected = member.waitFor(timeout: 10) { $0.redirect != nil }?.redirect
            #expect(redirected?.room == "lab" && redirected?.port == Int(other.port) && redirected?.id == nil)
            let otherHTTP = try #require(other.httpPort)
            #expect(waitUntil(timeout: 5) { ((try? fleetRooms(port: otherHTTP)) ?? nil)?["lab"] == "127.0.0.1:\(other.port)" },
                    "the new owner keeps its lease")
            #expect(owner.stderr.contains("lease taken by"), "the old owner says why it dropped lab")
            let counted = try MetricsScrape.fetch(port: try #require(owner.httpPort))
            #expect(counted.value("dyn_fleet_rooms_lost_total") == 1)
            #expect(counted.value(#"dyn_fleet_redirects_total{via="lease_lost"}"#) == 1)
            #expect(counted.value("dyn_fleet_rooms_owned") == 0)
            withExtendedLifetime(redis) {}
        }

        @Test func anIdleRoomIsSavedAndReleasedThenRestoredElsewhere() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis, ["--room-idle-s", "0.5"])
            let other = try fleetServer(redis)
            let maker = try owner.connect()
            _ = maker.join()
            _ = try #require(try maker.joinAnswer("lab", id: 1)?.ackFields)
            let spawned = try #require(try maker.ack(#"{"type":"spawn","shape":"ellipse","width":24,"height":24,"x":300,"y":100,"id":2}"#, id: 2))
            let body = try #require(spawned.first { $0.0 == "body" }?.1.number)
            _ = try #require(try maker.joinAnswer("main", id: 3)?.ackFields)
            // Unloaded after half a second without clients: saved to Redis and its lease released, so the other
            // server's join restores it (until then it is redirected to the owner).
            let probe = try other.connect()
            _ = probe.join()
            var attempt = 10
            var answer: ServerMessage?
            let restored = waitUntil(timeout: 10) {
                attempt += 1
                answer = try? probe.joinAnswer("lab", id: attempt, timeout: 2)
                return answer?.ackFields != nil
            }
            #expect(restored, "lab never left its owner: \(String(describing: answer))")
            #expect(answer?.ackFields?.first { $0.0 == "created" }?.1 == .bool(false))
            #expect(probe.lastScene?.bodies.contains { $0.id == Int(body) } == true, "body \(Int(body)) came along")
            withExtendedLifetime((redis, owner)) {}
        }

        @Test func aRecordingOfARestoredRoomStartsFromItsRestoredState() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis, ["--room-idle-s", "0.5"])
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dyn-fleet-rec-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            defer { try? FileManager.default.removeItem(at: directory) }
            let other = try fleetServer(redis, ["--record", directory.path])
            let maker = try owner.connect()
            _ = maker.join()
            _ = try #require(try maker.joinAnswer("lab", id: 1)?.ackFields)
            let spawned = try #require(try maker.ack(#"{"type":"spawn","shape":"rect","width":30,"height":30,"x":200,"y":100,"id":2}"#, id: 2))
            let body = try #require(spawned.first { $0.0 == "body" }?.1.number)
            _ = try #require(try maker.joinAnswer("main", id: 3)?.ackFields)
            let probe = try other.connect()
            _ = probe.join()
            var attempt = 10
            #expect(waitUntil(timeout: 10) {
                attempt += 1
                return (try? probe.joinAnswer("lab", id: attempt, timeout: 2))??.ackFields?.first { $0.0 == "created" }?.1 == .bool(false)
            })
            // The recording's header is the restored room, with the body its first owner made.
            let text = (try? String(contentsOf: directory.appendingPathComponent("lab.ndjson"), encoding: .utf8)) ?? ""
            let header = text.split(separator: "\n").first.map(String.init) ?? ""
            #expect(header.contains("\"id\":\(Int(body))"), "header: \(header.prefix(300))")
            withExtendedLifetime((redis, owner, other, maker)) {}
        }

        @Test func sigtermReleasesTheLeasesAtOnce() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let maker = try owner.connect()
            _ = maker.join()
            _ = try #require(try maker.joinAnswer("lab", id: 1)?.ackFields)
            let probe = try other.connect()
            _ = probe.join()
            #expect(try probe.joinAnswer("lab", id: 2)?.redirect != nil, "owned elsewhere before the SIGTERM")
            owner.signal(SIGTERM)
            // The drain: the owner is not ready any more, its member is told `bye` with reason draining once
            // --drain-s (1 s here) passes, and it exits 0.
            #expect(waitUntil(timeout: 5) { (try? HTTPReply.get(port: try #require(owner.httpPort), "/readyz"))??.status == 503 })
            #expect(maker.waitFor(timeout: 10) { if case .bye(let reason) = $0 { reason == "draining" } else { false } } != nil)
            #expect(owner.waitForExit(timeout: 10) == 0)
            // No waiting for the lease to run out: the very next join takes the room, with its state.
            let answer = try #require(try probe.joinAnswer("lab", id: 3))
            #expect(answer.ackFields?.first { $0.0 == "created" }?.1 == .bool(false), "got \(answer)")
            withExtendedLifetime((redis, maker)) {}
        }

        @Test func healthzSaysWhenTheLoopIsLate() throws {
            let redis = try RedisServerProcess()
            let server = try fleetServer(redis)
            let httpPort = try #require(server.httpPort)
            #expect(try HTTPReply.get(port: httpPort, "/healthz")?.status == 200)
            // The stimulus: the whole process stopped for 1.5 s (its loop cannot run), then continued.
            server.signal(SIGSTOP)
            usleep(1_500_000)
            server.signal(SIGCONT)
            let late = try #require(try HTTPReply.get(port: httpPort, "/healthz"))
            #expect(late.status == 503 && late.body.contains("event loop late"), "\(late.status) \(late.body)")
            withExtendedLifetime(redis) {}
        }

        @Test func withoutRedisRoomsKeepRunningNewJoinsAreUnavailableAndItReregisters() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let ownerHTTP = try #require(owner.httpPort)
            let otherHTTP = try #require(other.httpPort)
            let member = try owner.connect()
            _ = member.join()
            _ = try #require(try member.joinAnswer("lab", id: 1)?.ackFields)
            _ = try #require(try member.ack(#"{"type":"pause","id":2}"#, id: 2))
            redis.stop()
            #expect(waitUntil(timeout: 10) { (try? HTTPReply.get(port: ownerHTTP, "/readyz"))??.status == 503 })
            let readiness = try #require(try HTTPReply.get(port: ownerHTTP, "/readyz"))
            #expect(readiness.body.contains("redis"), "the reason: \(readiness.body)")
            // Liveness does not follow Redis: the loop runs on time.
            #expect(try HTTPReply.get(port: ownerHTTP, "/healthz")?.status == 200)
            #expect(try MetricsScrape.fetch(port: ownerHTTP).value("dyn_fleet_redis_up") == 0)
            // The room in memory keeps running: it steps when told to.
            let before = try #require(try member.currentTick())
            _ = try #require(try member.ack(#"{"type":"step","ticks":5,"id":3}"#, id: 3))
            let after = try #require(try member.currentTick())
            #expect(after == before + 5)
            // A join that needs the directory is unavailable; a join of a loaded room still works.
            let newcomer = try other.connect()
            _ = newcomer.join()
            #expect(try newcomer.joinAnswer("elsewhere", id: 4)?.errorCode == .unavailable)
            #expect(try member.joinAnswer("main", id: 5)?.ackFields != nil)
            #expect(try member.joinAnswer("lab", id: 6)?.ackFields != nil)
            // Redis comes back empty (same port): the servers reconnect and the owner registers lab again.
            let revived = try RedisServerProcess(port: redis.port)
            #expect(waitUntil(timeout: 10) { (try? HTTPReply.get(port: ownerHTTP, "/readyz"))??.status == 200 })
            #expect(try MetricsScrape.fetch(port: ownerHTTP).value("dyn_fleet_redis_up") == 1)
            let registered = waitUntil(timeout: 10) {
                ((try? fleetRooms(port: otherHTTP)) ?? nil)?["lab"] == "127.0.0.1:\(owner.port)"
            }
            let seen = (try? fleetRooms(port: otherHTTP)) ?? nil
            #expect(registered, "lab is not in the directory again: \(String(describing: seen))")
            #expect(try newcomer.joinAnswer("lab", id: 7)?.redirect?.port == Int(owner.port))
            withExtendedLifetime((revived, owner, other)) {}
        }

        @Test func theListCarriesOnlyTheRoomsThatChanged() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis, ["--max-rooms-per-client", "32"])
            let reader = try fleetServer(redis)
            let readerHTTP = try #require(reader.httpPort)
            // The owner holds 20 rooms: one client joins them in turn (each stays loaded, idle for 300 s).
            let client = try owner.connect()
            _ = client.join()
            let names = (0..<20).map { "r\($0)" }
            for (i, name) in names.enumerated() { _ = try #require(try client.joinAnswer(name, id: i + 1)?.ackFields) }
            _ = try #require(try client.joinAnswer("main", id: 99)?.ackFields)
            let ownerAddress = "127.0.0.1:\(owner.port)"
            #expect(waitUntil(timeout: 10) {
                let rooms = (try? fleetRooms(port: readerHTTP)) ?? nil
                return names.allSatisfy { rooms?[$0] == ownerAddress }
                    && (try? MetricsScrape.fetch(port: readerHTTP))?.value("dyn_fleet_list_entries_total") ?? 0 >= 20
            }, "the reader never listed the owner's 20 rooms")
            // Rounds with nothing changed carry nothing: not the 20 entries each, as a whole read would.
            let before = try MetricsScrape.fetch(port: readerHTTP)
            let rounds = before.value("dyn_fleet_list_rounds_total")
            #expect(waitUntil(timeout: 15) {
                _ = try? fleetRooms(port: readerHTTP)
                return ((try? MetricsScrape.fetch(port: readerHTTP))?.value("dyn_fleet_list_rounds_total") ?? 0) >= rounds + 3
            }, "fewer than 3 rounds of the list in 15 s")
            let quiet = try MetricsScrape.fetch(port: readerHTTP)
            #expect(quiet.value("dyn_fleet_list_entries_total") - before.value("dyn_fleet_list_entries_total") <= 1,
                    "rounds of an unchanged fleet carried \(quiet.value("dyn_fleet_list_entries_total") - before.value("dyn_fleet_list_entries_total")) entries")
            #expect(quiet.value("dyn_fleet_list_full_reads_total") == before.value("dyn_fleet_list_full_reads_total"))
            #expect(quiet.value("dyn_fleet_list_full_reads_total") >= 1, "the first round reads the whole list")
            // A new room reaches the reader's list as one changed entry.
            _ = try #require(try client.joinAnswer("extra", id: 100)?.ackFields)
            #expect(waitUntil(timeout: 10) { ((try? fleetRooms(port: readerHTTP)) ?? nil)?["extra"] == ownerAddress })
            // The owner dies: its leases lapse, the rooms are reaped from the list and leave the reader's copy.
            owner.signal(SIGKILL)
            _ = owner.waitForExit(timeout: 5)
            #expect(waitUntil(timeout: 15) {
                let rooms = (try? fleetRooms(port: readerHTTP)) ?? nil
                return rooms != nil && !(names + ["extra"]).contains { rooms?[$0] != nil }
            }, "the dead owner's rooms stayed in the list: \(String(describing: try? fleetRooms(port: readerHTTP)))")
            // Redis keeps neither their entries nor their lease ends.
            #expect(try redis.command("HLEN dyn:rooms") == ":0\r\n")
            #expect(try redis.command("ZCARD dyn:rooms:until") == ":0\r\n")
            let after = try MetricsScrape.fetch(port: readerHTTP)
            #expect(after.value("dyn_fleet_list_full_reads_total") == before.value("dyn_fleet_list_full_reads_total"),
                    "removals came as changes, not as whole reads")
            withExtendedLifetime((redis, client)) {}
        }
    }
}
