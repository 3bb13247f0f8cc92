import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// The fleet broken the way operators break it (docs/DEPLOY.md, What a failure costs; SPEC Part M): a
    /// real `redis-server` restarted, killed and stalled (`DEBUG SLEEP`), one server's link to Redis frozen
    /// by a proxy, an owner stopped (SIGSTOP) and killed. Each case tries writes through every server and
    /// checks: never two servers acknowledging writes to one room in the same interval, a newer owner's
    /// state never overwritten, every server back within 5 s of Redis, a Redis stall moving no room, tokens
    /// honoured after a move, and SIGTERM exiting 0 after any of it.
    @Suite(.serialized, .timeLimit(.minutes(1)), RequiredTool.redisServer.trait)
    struct FleetChaosTests {
        @Test func afterRedisRestartsEveryServerIsBackWithin5sAndKeepsItsRooms() throws {
            var redis = try stoppableRedis()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let ownerHTTP = try #require(owner.httpPort)
            let otherHTTP = try #require(other.httpPort)
            let member = try owner.connect()
            _ = member.join()
            _ = try #require(try member.joinAnswer("lab", id: 1)?.ackFields)
            let probe = try other.connect()
            _ = probe.join()
            var id = 10
            for (signum, name) in [(SIGTERM, "SIGTERM"), (SIGKILL, "SIGKILL")] {
                redis.signal(signum)
                #expect(redis.waitForExit(timeout: 10), "redis ignored \(name)")
                // Noticed: not ready, but alive (liveness never follows Redis).
                #expect(waitUntil(timeout: 5) { (try? HTTPReply.get(port: ownerHTTP, "/readyz"))??.status == 503 })
                #expect(try HTTPReply.get(port: ownerHTTP, "/healthz")?.status == 200)
                let revived = try stoppableRedis(port: redis.port)
                let started = Date()
                // Back within 5 s of Redis: both ready, lab registered again under its owner.
                let back = waitUntil(timeout: 5) {
                    (try? HTTPReply.get(port: ownerHTTP, "/readyz"))??.status == 200
                        && (try? HTTPReply.get(port: otherHTTP, "/readyz"))??.status == 200
                        && revived.get("dyn:owner:lab")?.contains("127.0.0.1:\(owner.port) ") == true
                }
                print("fleet: after a Redis \(name) and restart, every server was back \(Date().timeIntervalSince(started)) s after Redis answered")
                #expect(back, "not back within 5 s after a Redis \(name): owner \(revived.get("dyn:owner:lab") ?? "none")\n\(owner.stderr.suffix(1500))")
                // The owner kept lab: the other server redirects to it, and writes through it are acknowledged.
                id += 1
                #expect(try probe.joinAnswer("lab", id: id)?.redirect?.port == Int(owner.port))
                id += 1
                #expect(member.tryWrite(id: id).acked == true)
                redis = revived
            }
            #expect(try MetricsScrape.fetch(port: ownerHTTP).value("dyn_fleet_rooms_lost_total") == 0)
            // SIGTERM after the outages, and once more during one: both exit 0.
            owner.signal(SIGTERM)
            #expect(owner.waitForExit(timeout: 10) == 0)
            redis.signal(SIGKILL)
            #expect(redis.waitForExit(timeout: 10))
            other.signal(SIGTERM)
            #expect(other.waitForExit(timeout: 10) == 0)
        }

        @Test func aRedisStallLongerThanTheLeaseMovesNoRoom() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let ownerHTTP = try #require(owner.httpPort)
            let otherHTTP = try #require(other.httpPort)
            let member = try owner.connect()
            _ = member.join()
            _ = try #require(try member.joinAnswer("lab", id: 1)?.ackFields)
            let probe = try other.connect()
            _ = probe.join()
            let epoch = redis.get("dyn:epoch:lab")
            // Redis sleeps 7 s (longer than the 5 s lease). A join sent at once waits inside Redis, is given up
            // on (unavailable), and must not take lab when Redis wakes.
            let sleeper = try redis.stall(seconds: 7)
            let stalledAt = Date()
            _ = waitUntil(timeout: 1) { (try? redis.command("PING", timeout: 0.1)) == "" }
            #expect(try probe.joinAnswer("lab", id: 2, timeout: 6)?.errorCode == .unavailable)
            #expect(waitUntil(timeout: 3) { (try? HTTPReply.get(port: ownerHTTP, "/readyz"))??.status == 503 },
                    "the stall was not noticed within 2 s")
            // Past the owner's lease deadline its room is held: writes are refused, not acknowledged.
            _ = waitUntil(timeout: 6) { Date().timeIntervalSince(stalledAt) > 5 }
            #expect(member.tryWrite(id: 3).acked == false, "a write acknowledged while the lease could lapse")
            let woke = sleeper.receive(timeout: 10)
            #expect(String(decoding: woke, as: UTF8.self).hasPrefix("+OK"))
            let back = waitUntil(timeout: 5) {
                (try? HTTPReply.get(port: ownerHTTP, "/readyz"))??.status == 200
                    && (try? HTTPReply.get(port: otherHTTP, "/readyz"))??.status == 200
                    && member.tryWrite(id: 4).acked == true
            }
            #expect(back, "not back within 5 s of Redis waking\n\(owner.stderr.suffix(1500))")
            // Nothing moved: the same epoch, the same owner, the other server redirects to it.
            #expect(redis.get("dyn:epoch:lab") == epoch)
            #expect(redis.get("dyn:owner:lab")?.contains("127.0.0.1:\(owner.port) ") == true)
            #expect(try probe.joinAnswer("lab", id: 5)?.redirect?.port == Int(owner.port))
            let metrics = try MetricsScrape.fetch(port: ownerHTTP)
            #expect(metrics.value("dyn_fleet_rooms_lost_total") == 0)
            #expect(metrics.value("dyn_fleet_rooms_fenced") == 0)
            owner.signal(SIGTERM)
            #expect(owner.waitForExit(timeout: 10) == 0)
        }

        @Test func aRedisStoppedLongerThanTheLeaseMovesNoRoomAndLosesNoAcknowledgedWrite() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let ownerHTTP = try #require(owner.httpPort)
            let otherHTTP = try #require(other.httpPort)
            let member = try owner.connect()
            _ = member.join()
            _ = try #require(try member.joinAnswer("lab", id: 1)?.ackFields)
            var acked = [try #require(member.tryWrite(id: 2).body)]
            let probe = try other.connect()
            _ = probe.join()
            let epoch = redis.get("dyn:epoch:lab")
            // Redis is stopped (SIGSTOP) for 7 s, longer than the 5 s lease: its sockets still accept and
            // buffer what the servers send; it runs all of it when it is continued.
            redis.signal(SIGSTOP)
            let stoppedAt = Date()
            var continued = false
            defer { if !continued { redis.signal(SIGCONT) } }
            // Joins during the stall, of the owner's room and of a new one: unavailable (the first one's
            // claim is sent at once and waits inside the stopped Redis).
            #expect(try probe.joinAnswer("lab", id: 3, timeout: 6)?.errorCode == .unavailable)
            #expect(try probe.joinAnswer("fresh", id: 4, timeout: 6)?.errorCode == .unavailable)
            #expect(waitUntil(timeout: 3) { (try? HTTPReply.get(port: ownerHTTP, "/readyz"))??.status == 503 },
                    "the stall was not noticed within 2 s")
            // Writes through the owner: acknowledged until its lease deadline, refused (held) after it.
            var id = 10
            var refusedAfterLease = false
            while Date().timeIntervalSince(stoppedAt) < 6 {
                id += 1
                let write = member.tryWrite(id: id, x: 100 + id)
                if let body = write.body { acked.append(body) }
                if write.acked == false, Date().timeIntervalSince(stoppedAt) > 5 { refusedAfterLease = true }
                usleep(200_000)
            }
            #expect(refusedAfterLease, "a write acknowledged after the lease could have lapsed")
            _ = waitUntil(timeout: 2) { Date().timeIntervalSince(stoppedAt) >= 7 }
            redis.signal(SIGCONT)
            continued = true
            let continuedAt = Date()
            let back = waitUntil(timeout: 5) {
                (try? HTTPReply.get(port: ownerHTTP, "/readyz"))??.status == 200
                    && (try? HTTPReply.get(port: otherHTTP, "/readyz"))??.status == 200
                    && member.tryWrite(id: 99).acked == true
            }
            print("fleet: after Redis was stopped 7 s, both servers were back and lab took writes \(Date().timeIntervalSince(continuedAt)) s after SIGCONT")
            #expect(back, "not back within 5 s of Redis continuing\n\(owner.stderr.suffix(1500))")
            // Nothing moved: the same epoch and owner; the joins given up on took nothing.
            #expect(redis.get("dyn:epoch:lab") == epoch)
            #expect(redis.get("dyn:owner:lab")?.contains("127.0.0.1:\(owner.port) ") == true)
            #expect(redis.get("dyn:owner:fresh") == nil, "a join answered unavailable took its room later")
            #expect(try probe.joinAnswer("lab", id: 100)?.redirect?.port == Int(owner.port))
            // Every acknowledged write is in the state the owner saves from now on.
            let saved = waitUntil(timeout: 5) {
                let state = redis.get("dyn:state:lab") ?? ""
                return acked.allSatisfy { state.contains("\"id\":\($0)") }
            }
            #expect(saved, "acknowledged writes \(acked) lost: \(redis.get("dyn:state:lab")?.prefix(400) ?? "no state")")
            let metrics = try MetricsScrape.fetch(port: ownerHTTP)
            #expect(metrics.value("dyn_fleet_rooms_lost_total") == 0)
            #expect(metrics.value("dyn_fleet_rooms_fenced") == 0)
            owner.signal(SIGTERM)
            #expect(owner.waitForExit(timeout: 10) == 0)
            other.signal(SIGTERM)
            #expect(other.waitForExit(timeout: 10) == 0)
        }

        @Test func aClaimGivenUpOnDuringAStallNeverTakesEffectLater() throws {
            let redis = try RedisServerProcess()
            let server = try fleetServer(redis)
            let client = try server.connect()
            _ = client.join()
            // 1.7 s: long enough for the server to give up on its claim (unavailable), too short for anything
            // else (no lease lapses, no resume grace). The claim waits inside Redis and runs when it wakes:
            // past its deadline. The join is sent once Redis is seen asleep (a PING goes unanswered).
            let sleeper = try redis.stall(seconds: 1.7)
            _ = waitUntil(timeout: 1) { (try? redis.command("PING", timeout: 0.1)) == "" }
            #expect(try client.joinAnswer("fresh", id: 1, timeout: 5)?.errorCode == .unavailable)
            _ = sleeper.receive(timeout: 5)
            #expect(waitUntil(timeout: 5) { (try? HTTPReply.get(port: try #require(server.httpPort), "/readyz"))??.status == 200 })
            #expect(redis.get("dyn:owner:fresh") == nil, "the late claim leased the room to a server that gave up on it")
            #expect(try client.joinAnswer("fresh", id: 2)?.ackFields?.first { $0.0 == "created" }?.1 == .bool(true))
            server.signal(SIGTERM)
            #expect(server.waitForExit(timeout: 10) == 0)
        }

        @Test func aStoppedOwnerNeverOverwritesTheStateANewerOwnerSaved() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis, ["--room-idle-s", "0.5"])
            let member = try owner.connect()
            _ = member.join()
            _ = try #require(try member.joinAnswer("lab", id: 1)?.ackFields)
            let first = try #require(member.tryWrite(id: 2).body)
            #expect(waitUntil(timeout: 5) { redis.get("dyn:state:lab")?.contains("\"id\":\(first)") == true })
            owner.signal(SIGSTOP)
            // The other server claims lab once the lease lapses, adds two items, and unloads it (saved, released).
            let probe = try other.connect()
            _ = probe.join()
            var id = 10
            let claimed = waitUntil(timeout: 15) {
                id += 1
                return (try? probe.joinAnswer("lab", id: id, timeout: 2))??.ackFields != nil
            }
            #expect(claimed, "the other server never claimed lab")
            id += 1
            let second = probe.tryWrite(id: id, x: 300).body
            id += 1
            let third = try #require(probe.tryWrite(id: id, x: 400).body)
            #expect(second != nil)
            _ = try #require(try probe.joinAnswer("main", id: 50)?.ackFields)
            #expect(waitUntil(timeout: 10) { redis.get("dyn:owner:lab") == nil }, "the other server never released lab")
            let newer = redis.get("dyn:state:lab")
            #expect(newer?.contains("\"id\":\(third)") == true)
            let newerTick = try #require(savedTick(newer))
            owner.signal(SIGCONT)
            // Back, the old owner acknowledges no write to lab and drops its copy unsaved.
            // (It may already have moved its member to main, where a write is acknowledged, as it should.)
            let late = try member.writeAfterMove(id: 60)
            #expect(!late.acked || late.moved, "the stale owner acknowledged a write to lab")
            #expect(waitUntil(timeout: 5) { owner.stderr.contains("lease taken by") })
            usleep(1_500_000)
            let after = redis.get("dyn:state:lab")
            #expect(after?.contains("\"id\":\(third)") == true, "the newer owner's items were overwritten")
            #expect((savedTick(after) ?? 0) >= newerTick, "the saved tick went back")
            let counted = try MetricsScrape.fetch(port: try #require(owner.httpPort))
            #expect(counted.value("dyn_fleet_rooms_lost_total") == 1)
            #expect(counted.value("dyn_fleet_epoch_refusals_total") >= 1)
            owner.signal(SIGTERM)
            #expect(owner.waitForExit(timeout: 10) == 0)
        }

        @Test func aCutOffOwnerStopsAcknowledgingBeforeAnotherServerCanClaim() throws {
            let redis = try RedisServerProcess()
            let proxy = try FleetLinkProxy(targetPort: redis.port)
            let owner = try fleetServer(url: proxy.url)
            let other = try fleetServer(redis)
            let member = try owner.connect()
            _ = member.join()
            _ = try #require(try member.joinAnswer("lab", id: 1)?.ackFields)
            // A write saved before the cut: the new owner must have it.
            let saved = try #require(member.tryWrite(id: 2).body)
            #expect(waitUntil(timeout: 5) { redis.get("dyn:state:lab")?.contains("\"id\":\(saved)") == true })
            let probe = try other.connect()
            _ = probe.join()
            proxy.freeze()
            let frozenAt = Date()
            var firstRefusal: Date?
            var lastOwnerAck: Date?
            var ownerRefused = 0
            var firstOtherAck: Date?
            var otherBody: Int?
            var id = 10
            let deadline = Date().addingTimeInterval(20)
            while firstOtherAck == nil, Date() < deadline {
                id += 1
                switch member.tryWrite(id: id).acked {
                case true?: lastOwnerAck = Date()
                case false?:
                    ownerRefused += 1
                    if firstRefusal == nil { firstRefusal = Date() }
                case nil: break
                }
                id += 1
                if try probe.joinAnswer("lab", id: id, timeout: 2)?.ackFields != nil {
                    id += 1
                    let write = probe.tryWrite(id: id)
                    if write.acked == true {
                        firstOtherAck = Date()
                        otherBody = write.body
                    }
                }
                usleep(100_000)
            }
            let otherAck = try #require(firstOtherAck, "the other server never took lab over")
            print("fleet: a cut-off owner held lab \(firstRefusal.map { $0.timeIntervalSince(frozenAt) } ?? -1) s after its link froze; the other server acknowledged its first write \(otherAck.timeIntervalSince(frozenAt)) s after")
            #expect(ownerRefused > 0, "the cut-off owner never held lab")
            #expect(lastOwnerAck.map { $0 < otherAck } ?? true, "two servers acknowledged writes to lab in the same interval")
            id += 1
            #expect(member.tryWrite(id: id).acked != true)
            // The new owner restored what the old one had saved, and saves its own writes under its epoch.
            let newBody = try #require(otherBody)
            #expect(waitUntil(timeout: 5) {
                let state = redis.get("dyn:state:lab") ?? ""
                return state.contains("\"id\":\(saved)") && state.contains("\"id\":\(newBody)")
            }, "the saved write or the new owner's write is missing from lab's state")
            // The link comes back (with what it held, late): the old owner drops lab and redirects its member.
            proxy.thaw()
            let redirected = member.waitFor(timeout: 10) { $0.redirect != nil }?.redirect
            #expect(redirected?.port == Int(other.port))
            #expect(redis.get("dyn:owner:lab")?.contains("127.0.0.1:\(other.port) ") == true)
            owner.signal(SIGTERM)
            #expect(owner.waitForExit(timeout: 10) == 0)
        }

        @Test func dynclientGoesBackToWhereItStartedWhenTheOwnerDies() throws {
            let redis = try RedisServerProcess()
            let owner = try fleetServer(redis)
            let other = try fleetServer(redis)
            let maker = try owner.connect()
            _ = maker.join()
            _ = try #require(try maker.joinAnswer("lab", id: 1)?.ackFields)
            let body = try #require(maker.tryWrite(id: 2).body)
            #expect(waitUntil(timeout: 5) { redis.get("dyn:state:lab")?.contains("\"id\":\(body)") == true })
            // A headless client asks the other server for lab, is redirected to the owner, and stays 15 s.
            let finished = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var run: HeadlessRun?
            let otherPort = other.port
            Thread.detachNewThread {
                run = try? HeadlessRun.run(["--port", String(otherPort), "--headless", "--room", "lab", "--linger", "15000"],
                                           stdin: "", timeout: 40)
                finished.signal()
            }
            #expect(maker.nextSnapshot(timeout: 10) { $0.clients == 2 } != nil, "the client never reached the owner")
            owner.signal(SIGKILL)
            _ = owner.waitForExit(timeout: 5)
            #expect(finished.wait(timeout: .now() + 40) == .success)
            let messages = try #require(run).stdoutLines.compactMap { ServerMessage.decode($0) }
            // Back at the address it started from, which now owns lab (restored, with the body).
            let joins = messages.compactMap(\.ackFields).filter { $0.first { $0.0 == "room" }?.1 == .string("lab") }
            #expect(joins.count >= 2, "lab joined again after the owner died: \(joins.count) joins")
            let lastScene = messages.last { if case .scene = $0 { true } else { false } }
            if case .scene(let scene)? = lastScene {
                #expect(scene.bodies.contains { $0.id == body }, "the room came back with its state")
            }
            #expect(redis.get("dyn:owner:lab")?.contains("127.0.0.1:\(other.port) ") == true)
            other.signal(SIGTERM)
            #expect(other.waitForExit(timeout: 10) == 0)
        }

        @Test func redisWithAPasswordAndGetRoomsWithTheServersToken() throws {
            let redis = try RedisServerProcess()
            #expect(try redis.command("CONFIG SET requirepass s3cret").hasPrefix("+OK"))
            // A wrong password: never ready, and the reason says why.
            let refused = try ServerProcess(["--cluster", "redis://:wrong@127.0.0.1:\(redis.port)", "--scene", "empty"])
            let refusedHTTP = try #require(refused.httpPort)
            #expect(waitUntil(timeout: 5) { refused.stderr.contains("AUTH refused") }, "\(refused.stderr.suffix(800))")
            #expect(try HTTPReply.get(port: refusedHTTP, "/readyz")?.status == 503)
            let server = try fleetServer(url: "redis://:s3cret@127.0.0.1:\(redis.port)", ["--token", "T"])
            let httpPort = try #require(server.httpPort)
            // GET /rooms needs the token the rooms command needs.
            #expect(try HTTPReply.get(port: httpPort, "/rooms")?.status == 401)
            #expect(try HTTPReply.get(port: httpPort, "/rooms?token=nope")?.status == 401)
            #expect(try HTTPReply.get(port: httpPort, "/rooms?token=T")?.status == 200)
        }

        @Test func aRoomsTokenIsHonouredAfterItMoves() throws {
            let redis = try RedisServerProcess()
            // With --admin-token, room rights come only from creating a room or holding its token.
            let owner = try fleetServer(redis, ["--admin-token", "A"])
            let other = try fleetServer(redis, ["--admin-token", "A"])
            let maker = try owner.connect()
            _ = maker.join()
            let created = try #require(try maker.joinAnswer("lab", id: 1)?.ackFields)
            let token = try #require(created.first { $0.0 == "room_token" }?.1.string)
            #expect(waitUntil(timeout: 5) { redis.get("dyn:token:lab") == token })
            owner.signal(SIGKILL)
            _ = owner.waitForExit(timeout: 5)
            // A stranger gets lab back without rights; the creator's token still makes its holder admin.
            let stranger = try other.connect()
            _ = stranger.join()
            var id = 10
            var answer: [(String, JSONValue)]?
            _ = waitUntil(timeout: 15) {
                id += 1
                answer = (try? stranger.joinAnswer("lab", id: id, timeout: 2))??.ackFields
                return answer != nil
            }
            #expect(answer?.first { $0.0 == "created" }?.1 == .bool(false))
            #expect(answer?.first { $0.0 == "admin" }?.1 == .bool(false), "a stranger became the room's admin")
            let creator = try other.connect()
            _ = creator.join()
            try creator.send(#"{"type":"join","id":2,"room":"lab","room_token":"\#(token)"}"#)
            let rejoined = creator.joinReply(id: 2)?.ackFields
            #expect(rejoined?.first { $0.0 == "admin" }?.1 == .bool(true), "the token lost its rights in the move")
            other.signal(SIGTERM)
            #expect(other.waitForExit(timeout: 10) == 0)
        }
    }
}
