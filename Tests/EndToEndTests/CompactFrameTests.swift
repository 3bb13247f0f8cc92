import Foundation
import NetProtocol
import Testing

extension EndToEnd {
    /// Compact frames and per-client subscriptions (docs/PROTOCOL.md, `subscribe` and `frame`): a compact
    /// client that applies its frames holds exactly what a full client is told, tick for tick.
    @Suite(.serialized)
    struct CompactFrameTests {
        /// Zero gravity and `count` elastic balls in flight, so every body moves on every tick.
        private func fillWithMovingBalls(_ admin: LineClient, count: Int, firstID: Int = 100) throws {
            #expect(try admin.ack(#"{"type":"gravity","magnitude":0,"id":\#(firstID - 1)}"#, id: firstID - 1) != nil)
            for i in 0..<count {
                let x = 40 + (i * 37) % 720, y = 40 + (i * 53) % 520
                let vx = 60 + (i * 17) % 140, vy = -50 - (i * 29) % 120
                try admin.send(#"{"type":"spawn","shape":"ellipse","width":10,"height":10,"x":\#(x),"y":\#(y),"vx":\#(vx),"vy":\#(vy),"elasticity":1,"friction":0,"resistance":0,"id":\#(firstID + i)}"#)
            }
            #expect(admin.answer(to: .int(firstID + count - 1), timeout: 20) != nil, "every spawn acked")
        }

        /// A full client (the admin) and a compact one, both joined and the compact one subscribed.
        private func pair(_ server: ServerProcess) throws -> (full: LineClient, compact: LineClient) {
            let full = try server.connect()
            #expect(full.join().snapshot != nil)
            let compact = try server.connect()
            #expect(compact.join().snapshot != nil, "before subscribing, a client gets full snapshots")
            let ack = try #require(try compact.subscribe(#""snapshots":"compact""#))
            #expect(ack.first { $0.0 == "snapshots" }?.1 == .string("compact"))
            return (full, compact)
        }

        @Test(.timeLimit(.minutes(5))) func subscribingToCompactStartsWithAKeyframeOfEveryBody() throws {
            let server = try ServerProcess(["--scene", "default"])
            let (_, compact) = try pair(server)
            guard case let .frame(frame)? = compact.waitFor(timeout: 5, { if case .frame = $0 { true } else { false } }) else {
                Issue.record("no frame after subscribing")
                return
            }
            #expect(frame.base == nil, "the first frame is a keyframe")
            #expect(frame.bodies.count == compact.lastScene?.bodies.count)
            #expect(Set(frame.bodies.map(\.id)) == Set(compact.lastScene?.bodies.map(\.id) ?? []))
        }

        @Test(.timeLimit(.minutes(5))) func fullAndCompactClientsAgreeTickForTickThroughSpawnAndRemove() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let (full, compact) = try pair(server)
            try fillWithMovingBalls(full, count: 30)
            var both = SideBySide()
            both.read(full: full, compact: compact, seconds: 1.5)
            // A spawn and a remove change the body set: a scene, then a keyframe, then deltas again.
            #expect(try full.ack(#"{"type":"spawn","shape":"rect","width":30,"height":20,"x":400,"y":300,"vx":90,"id":1}"#, id: 1) != nil)
            #expect(try full.ack(#"{"type":"remove","body":3,"id":2}"#, id: 2) != nil)
            both.read(full: full, compact: compact, seconds: 1.5)
            let (common, differing) = both.comparison()
            #expect(both.compact.failures.isEmpty, "\(both.compact.failures.prefix(3))")
            #expect(common.count >= 40, "30 Hz for 3 s; \(common.count) ticks in common")
            #expect(differing.isEmpty, "ticks where the compact client's state differs: \(differing.prefix(5))")
            #expect(both.compact.scenes >= 1 && both.compact.deltasAfterScene == 0, "the first frame after a scene is a keyframe")
            let last = try #require(common.last.flatMap { both.compact.states[$0] })
            #expect(last.bodies.count == 30, "30 balls + 1 spawned - 1 removed")
            #expect(last.bodies.contains { $0.id == 3 } == false)
            // Moving bodies are listed, resting ones are not: deltas are smaller than the body count only
            // when something rests, so here every delta lists the bodies that moved, which is all of them.
            let deltas = both.compact.frames.filter { !$0.isKeyframe }
            #expect(!deltas.isEmpty)
            #expect(deltas.allSatisfy { $0.bodies.count >= 30 }, "delta sizes: \(Set(deltas.map(\.bodies.count)).sorted())")
        }

        @Test(.timeLimit(.minutes(5))) func afterASceneLoadTheNextFrameIsAKeyframeAndStatesStillAgree() throws {
            let server = try ServerProcess(["--scene", "default"])
            let (full, compact) = try pair(server)
            var both = SideBySide()
            both.read(full: full, compact: compact, seconds: 0.7)
            #expect(try full.ack(#"{"type":"scene","name":"collision","id":5}"#, id: 5) != nil)
            both.read(full: full, compact: compact, seconds: 1.5)
            #expect(try full.ack(#"{"type":"scene","name":"elasticity","id":6}"#, id: 6) != nil)
            both.read(full: full, compact: compact, seconds: 1.5)
            let (common, differing) = both.comparison()
            #expect(both.compact.failures.isEmpty, "\(both.compact.failures.prefix(3))")
            #expect(both.compact.scenes >= 2)
            #expect(both.compact.keyframesAfterScene == both.compact.scenes && both.compact.deltasAfterScene == 0)
            #expect(common.count >= 30)
            #expect(differing.isEmpty, "ticks that differ: \(differing.prefix(5))")
        }

        @Test(.timeLimit(.minutes(5))) func aRestingWorldSendsFramesWithoutBodies() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let (full, compact) = try pair(server)
            // Zero gravity first: the box never moves. After its keyframe every frame lists nothing.
            #expect(try full.ack(#"{"type":"gravity","magnitude":0,"id":2}"#, id: 2) != nil)
            #expect(try full.ack(#"{"type":"spawn","shape":"rect","width":40,"height":40,"x":400,"y":300,"id":1}"#, id: 1) != nil)
            var stream = CompactStream()
            while stream.frames.filter({ !$0.isKeyframe }).count < 3, let message = compact.next(timeout: 5) {
                stream.take(message)
            }
            let deltas = stream.frames.filter { !$0.isKeyframe }
            #expect(deltas.count >= 3, "keep-alive frames arrive while the world rests")
            #expect(deltas.allSatisfy { $0.bodies.isEmpty }, "\(deltas.map(\.bodies.count))")
        }

        @Test(.timeLimit(.minutes(5))) func aSlowClientSkipsFramesButEachFrameFitsWhatItReallyGot() throws {
            // A tiny kernel send buffer (and a small receive window) so the server's own latest-only slot fills
            // at once and newer frames replace unsent ones.
            let server = try ServerProcess(["--scene", "empty", "--send-buffer-bytes", "4096"])
            let full = try server.connect()
            #expect(full.join().snapshot != nil)
            try fillWithMovingBalls(full, count: 150)
            let slow = try LineClient(port: server.port, receiveBufferBytes: 4096)
            #expect(slow.join().snapshot != nil)
            #expect(try slow.subscribe(#""snapshots":"compact","notices":false"#) != nil)
            // The slow client reads nothing while the full one takes 60 snapshots (about 2 s).
            var fullStates: [UInt64: Snapshot] = [:]
            while fullStates.count < 60, let message = full.next(timeout: 5) {
                if case let .snapshot(snapshot) = message { fullStates[snapshot.tick] = snapshot }
            }
            var stream = CompactStream()
            var both = SideBySide()
            // Then it drains its backlog and keeps reading; the full client reads alongside.
            both.read(full: full, compact: slow, seconds: 6) { $0.compact.frames.count >= 40 }
            stream = both.compact
            for (tick, snapshot) in fullStates { both.full[tick] = snapshot }
            let (common, differing) = both.comparison()
            #expect(stream.failures.isEmpty, "every frame applied to the state the client held: \(stream.failures.prefix(3))")
            let gaps = zip(stream.ticks, stream.ticks.dropFirst()).filter { $1 - $0 > 2 }
            #expect(!gaps.isEmpty, "the slow client skipped frames (ticks \(stream.ticks.prefix(40)))")
            #expect(common.count >= 10)
            #expect(differing.isEmpty, "ticks that differ: \(differing.prefix(5))")
        }

        @Test(.timeLimit(.minutes(5))) func snapshotsNoneGetsNoStateButStillAcksAndPongs() throws {
            let server = try ServerProcess(["--scene", "default"])
            let watcher = try server.connect()
            #expect(watcher.join().snapshot != nil)
            let quiet = try server.connect()
            #expect(quiet.join().snapshot != nil)
            let ack = try #require(try quiet.subscribe(#""snapshots":"none""#))
            #expect(ack.first { $0.0 == "snapshots" }?.1 == .string("none"))
            // While the watcher sees 20 snapshots (and a spawn of the quiet client's), the quiet one gets
            // its ack and the scene, but no snapshot or frame.
            #expect(try quiet.ack(#"{"type":"spawn","shape":"rect","width":20,"height":20,"x":100,"y":100,"id":7}"#, id: 7) != nil)
            var seen = 0
            while seen < 20, let message = watcher.next(timeout: 5) { if case .snapshot = message { seen += 1 } }
            #expect(seen == 20)
            guard case .pong? = try quiet.request(.ping(t: nil), id: .int(8)) else {
                Issue.record("no pong")
                return
            }
            var state = 0
            while let message = quiet.next(timeout: 0.2) {
                switch message {
                case .snapshot, .frame: state += 1
                default: break
                }
            }
            #expect(state == 0, "no snapshot or frame after subscribing to none")
            #expect(quiet.sceneCount == 2, "the scene still arrives")
        }

        @Test(.timeLimit(.minutes(5))) func snapshotHzIsHonouredPerClient() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let (full, compact) = try pair(server)
            try fillWithMovingBalls(full, count: 5)
            let ack = try #require(try compact.subscribe(#""snapshot_hz":10"#, id: 9002))
            #expect(ack.first { $0.0 == "snapshot_hz" }?.1 == .number(10))
            let ten = try #require(try full.subscribe(#""snapshot_hz":15"#, id: 9003))
            #expect(ten.first { $0.0 == "snapshot_hz" }?.1 == .number(15))
            var compactTicks: [UInt64] = [], fullTicks: [UInt64] = []
            let deadline = Date().addingTimeInterval(8)
            while (compactTicks.count < 12 || fullTicks.count < 12) && Date() < deadline {
                if case let .frame(frame)? = compact.next(timeout: 0.01) { compactTicks.append(frame.tick) }
                if case let .snapshot(snapshot)? = full.next(timeout: 0.01) { fullTicks.append(snapshot.tick) }
            }
            // At 60 ticks/s, 10 Hz is one state every 6 ticks and 15 Hz one every 4; the first one read may
            // predate the subscription.
            let compactSteps = zip(compactTicks.dropFirst(), compactTicks.dropFirst(2)).map { $1 - $0 }
            let fullSteps = zip(fullTicks.dropFirst(), fullTicks.dropFirst(2)).map { $1 - $0 }
            #expect(compactSteps.count >= 10 && compactSteps.allSatisfy { $0 >= 6 }, "\(compactSteps)")
            #expect(fullSteps.count >= 10 && fullSteps.allSatisfy { $0 >= 4 }, "\(fullSteps)")
            #expect(compactSteps.filter { $0 == 6 }.count * 2 >= compactSteps.count, "mostly every 6th tick: \(compactSteps)")
            #expect(fullSteps.filter { $0 == 4 }.count * 2 >= fullSteps.count, "mostly every 4th tick: \(fullSteps)")
        }
    }
}
