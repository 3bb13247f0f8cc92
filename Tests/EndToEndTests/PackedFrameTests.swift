import Foundation
import NetProtocol
import Testing

/// A tick made unique across a `restore`, which takes the tick back: each time the tick goes back, a new
/// epoch starts (a client sees the restore once, so two clients count the same epochs).
struct EpochTicks {
    private(set) var epoch: UInt64 = 0
    private var last: UInt64?

    mutating func key(_ tick: UInt64) -> UInt64 {
        if let last, tick < last { epoch += 1 }
        last = tick
        return epoch << 40 | tick
    }
}

/// What a packed client rebuilt with the public `PackedApplier`, by tick, and what it saw on the way.
struct PackedStream {
    var applier = PackedApplier()
    /// By `EpochTicks` key.
    var states: [UInt64: Snapshot] = [:]
    var epochs = EpochTicks()
    var ticks: [UInt64] = []
    var sizes: [Int] = []
    var failures: [String] = []
    var keyframes = 0
    var keyframesAfterScene = 0
    var deltasAfterScene = 0
    var scenes = 0
    /// Text messages that carried world state (a packed client should get none but `packed` lines).
    var textState = 0
    var packedLines = 0
    var binaryMessages = 0
    private var sceneSeen = false

    mutating func take(_ input: PackedInput) {
        switch input {
        case let .message(message): take(message)
        case let .binary(data):
            binaryMessages += 1
            take(data)
        }
    }

    mutating func take(_ message: ServerMessage) {
        switch message {
        case .scene:
            scenes += 1
            sceneSeen = true
        case let .packed(tick, data):
            packedLines += 1
            take(data, lineTick: tick)
        case .snapshot, .frame:
            textState += 1
        default:
            break
        }
    }

    /// One frame's bytes (from a binary WebSocket message, or a `packed` line saying `lineTick`).
    mutating func take(_ data: [UInt8], lineTick: UInt64? = nil) {
        let keyframe = (data.first ?? 0) & 0x80 != 0
        if keyframe { keyframes += 1 }
        if sceneSeen {
            if keyframe { keyframesAfterScene += 1 } else { deltasAfterScene += 1 }
            sceneSeen = false
        }
        sizes.append(data.count)
        do {
            let state = try applier.apply(data)
            if let lineTick, lineTick != state.tick { failures.append("line tick \(lineTick), frame tick \(state.tick)") }
            states[epochs.key(state.tick)] = state
            ticks.append(state.tick)
        } catch {
            failures.append("\(error)")
        }
    }
}

/// A full client and a packed client read side by side, compared tick by tick.
struct PackedSideBySide {
    /// By `EpochTicks` key.
    var full: [UInt64: Snapshot] = [:]
    var fullEpochs = EpochTicks()
    var packed = PackedStream()

    mutating func read(full a: LineClient, packed next: () -> PackedInput?, seconds: Double,
                       until: ((PackedSideBySide) -> Bool)? = nil) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let message = a.next(timeout: 0.01), case let .snapshot(snapshot) = message {
                full[fullEpochs.key(snapshot.tick)] = snapshot
            }
            if let message = next() { packed.take(message) }
            if let until, until(self) { return }
        }
    }

    /// Ticks both got, and the ticks where the packed state is not the full one: other ids or order, a
    /// position more than 1/32 pt off, an angle more than 1e-4 rad off, other flags or clients.
    func comparison() -> (common: [UInt64], differing: [String]) {
        let common = Set(full.keys).intersection(packed.states.keys).sorted()
        var differing: [String] = []
        for key in common {
            guard let a = full[key], let b = packed.states[key] else { continue }
            let tick = a.tick
            guard a.bodies.map(\.id) == b.bodies.map(\.id) else {
                differing.append("tick \(tick): ids \(a.bodies.map(\.id).prefix(5)) vs \(b.bodies.map(\.id).prefix(5))")
                continue
            }
            for (p, q) in zip(a.bodies, b.bodies)
            where abs(p.x - q.x) > 1.0 / 32 || abs(p.y - q.y) > 1.0 / 32 || abs(p.angle - q.angle) > 1e-4 {
                differing.append("tick \(tick) body \(p.id): (\(p.x), \(p.y), \(p.angle)) vs (\(q.x), \(q.y), \(q.angle))")
            }
            // (`clients` may differ at one tick: a join between that tick's broadcast and the joiner's keyframe.)
            if a.paused != b.paused || a.held != b.held || abs(a.time - b.time) > 1e-9 || a.drags != b.drags {
                differing.append("tick \(tick): flags, time or drags differ")
            }
        }
        return (common, differing)
    }
}

/// What a packed client reads: a message (any over TCP, text ones over WebSocket), or a binary WebSocket
/// message's bytes.
enum PackedInput {
    case message(ServerMessage)
    case binary([UInt8])
}

extension WebSocketClient {
    /// The next text message decoded, or binary message.
    func nextPacked(timeout: Double) -> PackedInput? {
        switch nextFrame(timeout: timeout) {
        case let .text(bytes)?: return ServerMessage.decode(bytes).map(PackedInput.message)
        case let .binaryData(bytes)?: return .binary(bytes)
        default: return nil
        }
    }
}

extension EndToEnd {
    /// Packed frames (docs/PROTOCOL.md, "packed"): a packed client, over TCP or WebSocket, rebuilds what a
    /// full client is told at the same tick, within 1/32 pt and 1e-4 rad, through keyframes, scene changes,
    /// new and removed bodies, skipped frames and a restore.
    @Suite(.serialized)
    struct PackedFrameTests {
        /// Zero gravity and `count` elastic balls in flight, so every body moves on every tick.
        private func fillWithMovingBalls(_ admin: LineClient, count: Int, firstID: Int = 100) throws {
            #expect(try admin.ack(#"{"type":"gravity","magnitude":0,"id":\#(firstID - 1)}"#, id: firstID - 1) != nil)
            for i in 0..<count {
                let x = 40 + (i * 37) % 720, y = 40 + (i * 53) % 520
                let vx = 60 + (i * 17) % 140, vy = -50 - (i * 29) % 120
                try admin.send(#"{"type":"spawn","shape":"ellipse","width":10,"height":10,"x":\#(x),"y":\#(y),"vx":\#(vx),"vy":\#(vy),"angle":\#(i),"elasticity":1,"friction":0,"resistance":0,"id":\#(firstID + i)}"#)
            }
            #expect(admin.answer(to: .int(firstID + count - 1), timeout: 20) != nil, "every spawn acked")
        }

        /// Spawns, a remove, a scene load, a drag, a checkpoint and its restore, reading both clients
        /// between each, then checks that they agreed on every common tick.
        private func exercise(full: LineClient, readPacked: @escaping () -> PackedInput?) throws -> PackedSideBySide {
            var both = PackedSideBySide()
            func read(_ seconds: Double) { both.read(full: full, packed: readPacked, seconds: seconds) }
            try fillWithMovingBalls(full, count: 40)
            read(1)
            #expect(try full.ack(#"{"type":"checkpoint","name":"packed","id":1}"#, id: 1) != nil)
            #expect(try full.ack(#"{"type":"spawn","shape":"rect","width":30,"height":20,"x":400,"y":300,"vx":90,"id":2}"#, id: 2) != nil)
            #expect(try full.ack(#"{"type":"remove","body":3,"id":3}"#, id: 3) != nil)
            read(1)
            #expect(try full.ack(#"{"type":"drag","phase":"begin","body":1,"x":400,"y":300,"id":4}"#, id: 4) != nil)
            read(0.5)
            #expect(try full.ack(#"{"type":"restore","name":"packed","id":5}"#, id: 5) != nil)
            read(1)
            #expect(try full.ack(#"{"type":"scene","name":"default","id":6}"#, id: 6) != nil)
            read(1.5)
            return both
        }

        private func check(_ both: PackedSideBySide) {
            let (common, differing) = both.comparison()
            #expect(both.packed.failures.isEmpty, "\(both.packed.failures.prefix(3))")
            #expect(both.packed.textState == 0, "a packed client gets no snapshot or frame")
            #expect(common.count >= 60, "30 Hz for 5 s; \(common.count) ticks in common")
            #expect(differing.isEmpty, "\(differing.count) differences: \(differing.prefix(4))")
            #expect(both.packed.keyframesAfterScene >= 4, "spawn, remove, restore and scene load each send a scene")
            #expect(both.packed.deltasAfterScene == 0, "the first frame after a scene is a keyframe")
            #expect(both.packed.epochs.epoch == 1 && both.fullEpochs.epoch == 1, "the restore took the tick back once")
            #expect(both.packed.keyframes < both.packed.ticks.count / 4, "mostly deltas: \(both.packed.keyframes) keyframes")
        }

        @Test(.timeLimit(.minutes(5))) func overTCPAPackedClientHoldsWhatAFullClientIsTold() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let full = try server.connect()
            #expect(full.join().snapshot != nil)
            let packed = try server.connect()
            #expect(packed.join().snapshot != nil)
            let ack = try #require(try packed.subscribe(#""snapshots":"packed""#))
            #expect(ack.first { $0.0 == "snapshots" }?.1 == .string("packed"))
            let both = try exercise(full: full) { packed.next(timeout: 0.01).map(PackedInput.message) }
            check(both)
            #expect(both.packed.packedLines == both.packed.sizes.count && both.packed.binaryMessages == 0)
        }

        @Test(.timeLimit(.minutes(5))) func overWebSocketEachFrameIsOneBinaryMessage() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let http = try #require(server.httpPort)
            let full = try server.connect()
            #expect(full.join().snapshot != nil)
            let web = try WebSocketClient(port: http)
            #expect(web.join().snapshot != nil)
            try web.send(#"{"type":"subscribe","snapshots":"packed","id":1}"#)
            let both = try exercise(full: full) { web.nextPacked(timeout: 0.01) }
            check(both)
            #expect(both.packed.binaryMessages == both.packed.sizes.count && both.packed.packedLines == 0,
                    "binary messages only: \(both.packed.binaryMessages) binary, \(both.packed.packedLines) lines")
        }

        /// A held world (docs/PROTOCOL.md, `step`) sends exactly one frame per step to every client, two ticks
        /// apart. The slow client stops reading while the full client steps on, until the server reports that
        /// it replaced unsent frames (`dyn_snapshots_superseded_total`: only the slow client can have any, the
        /// full one reads each step's snapshot before the next); then it reads again while the steps go on.
        /// Every frame it got must decode to the full snapshot of its tick, and the frame after each gap is a
        /// delta against what it really received (docs/PROTOCOL.md, the baseline rule).
        private func slowClientSkips(_ server: ServerProcess, full: LineClient, readSlow: @escaping (Double) -> PackedInput?)
            throws -> PackedSideBySide {
            let http = try #require(server.httpPort)
            var both = PackedSideBySide()
            // The keyframe the subscription sends: the slow client holds a baseline before it stops reading.
            let deadline = Date().addingTimeInterval(20)
            while both.packed.ticks.isEmpty, Date() < deadline, let input = readSlow(1) { both.packed.take(input) }
            try #require(both.packed.ticks.count == 1, "the subscription's keyframe arrived")
            let before = try MetricsScrape.fetch(port: http).value("dyn_snapshots_superseded_total")
            var id = 1000, steps = 0, superseded = 0.0
            func step() throws {
                id += 1
                steps += 1
                let snapshot = try #require(try full.step(2, id: id), "step \(id) answered with its snapshot")
                both.full[snapshot.tick] = snapshot   // epoch 0: no restore here
            }
            // Not reading: the kernel's buffers fill, then the server's latest-only slot replaces frames.
            while superseded < 3, steps < 3000 {
                for _ in 0..<10 { try step() }
                superseded = try MetricsScrape.fetch(port: http).value("dyn_snapshots_superseded_total") - before
            }
            try #require(superseded >= 3, "the server replaced unsent frames after \(steps) steps")
            // Reading again: everything still queued, then 20 more steps read one by one.
            func catchUp() {
                let last = both.full.keys.max() ?? 0
                let deadline = Date().addingTimeInterval(20)
                while both.packed.ticks.last != last, Date() < deadline, let input = readSlow(1) { both.packed.take(input) }
            }
            catchUp()
            for _ in 0..<20 {
                try step()
                catchUp()
            }
            let ticks = both.packed.ticks
            let gaps = zip(ticks, ticks.dropFirst()).filter { $1 - $0 > 2 }.count
            #expect(gaps >= 1, "the slow client's frames skip ticks: \(ticks.prefix(40))")
            #expect(ticks.count + Int(superseded) <= steps + 1, "\(ticks.count) frames for \(steps) steps, \(superseded) replaced")
            #expect(ticks.last == both.full.keys.max(), "the slow client caught up with the last step")
            return both
        }

        private func checkSlow(_ both: PackedSideBySide) {
            let (common, differing) = both.comparison()
            #expect(both.packed.failures.isEmpty, "\(both.packed.failures.prefix(3))")
            #expect(both.packed.keyframes == 1, "every frame after a skip is a delta: \(both.packed.keyframes) keyframes")
            #expect(common.count == both.packed.ticks.count - 1, "each frame but the keyframe (before the steps) has its full snapshot")
            #expect(common.count >= 21)
            #expect(differing.isEmpty, "\(differing.count) differences: \(differing.prefix(4))")
        }

        /// The server for the slow-client tests: held, small kernel send buffers, a stall timeout far above the
        /// time the slow client reads nothing, and 150 elastic balls falling and bouncing: gravity bends every
        /// path, so each frame lists every ball (a steady flight is predicted and costs nothing, and frames of
        /// a few bytes would take tens of thousands of steps to fill the kernel's buffers).
        private func heldServerWithMovingBalls() throws -> (ServerProcess, LineClient) {
            let server = try ServerProcess(["--scene", "empty", "--held", "--send-buffer-bytes", "4096", "--stall-timeout", "120"])
            let full = try server.connect()
            #expect(full.join().snapshot != nil)
            try fillWithMovingBalls(full, count: 150)
            #expect(try full.ack(#"{"type":"gravity","dx":0,"dy":1,"id":98}"#, id: 98) != nil)
            return (server, full)
        }

        @Test(.timeLimit(.minutes(5))) func overTCPASlowPackedClientSkipsFramesAndDecodesEachOneItGets() throws {
            let (server, full) = try heldServerWithMovingBalls()
            let slow = try LineClient(port: server.port, receiveBufferBytes: 4096)
            #expect(slow.join().snapshot != nil)
            // Not `subscribe(_:)`, which reads up to the ack: the keyframe may come before it.
            try slow.send(#"{"type":"subscribe","snapshots":"packed","notices":false,"id":1}"#)
            let both = try slowClientSkips(server, full: full) { slow.next(timeout: $0).map(PackedInput.message) }
            checkSlow(both)
            #expect(both.packed.packedLines == both.packed.sizes.count)
        }

        @Test(.timeLimit(.minutes(5))) func overWebSocketASlowPackedClientSkipsFramesAndDecodesEachOneItGets() throws {
            let (server, full) = try heldServerWithMovingBalls()
            let http = try #require(server.httpPort)
            let slow = try WebSocketClient(port: http, receiveBufferBytes: 4096)
            #expect(slow.join().snapshot != nil)
            try slow.send(#"{"type":"subscribe","snapshots":"packed","notices":false,"id":1}"#)
            let both = try slowClientSkips(server, full: full) { slow.nextPacked(timeout: $0) }
            checkSlow(both)
            #expect(both.packed.binaryMessages == both.packed.sizes.count)
        }

        @Test(.timeLimit(.minutes(5))) func aRestingWorldCostsAFewBytesAFrame() throws {
            let server = try ServerProcess(["--scene", "empty"])
            let admin = try server.connect()
            #expect(admin.join().snapshot != nil)
            #expect(try admin.ack(#"{"type":"gravity","magnitude":0,"id":2}"#, id: 2) != nil)
            for i in 0..<200 {
                try admin.send(#"{"type":"spawn","shape":"rect","width":10,"height":10,"x":\#(20 + (i % 20) * 30),"y":\#(20 + (i / 20) * 30)}"#)
            }
            guard case .pong? = try admin.request(#"{"type":"ping","id":3}"#, id: .int(3)) else {
                Issue.record("no pong after the spawns")
                return
            }
            let packed = try server.connect()
            #expect(packed.join().snapshot != nil)
            #expect(try packed.subscribe(#""snapshots":"packed""#) != nil)
            var stream = PackedStream()
            while stream.ticks.count < 4, let message = packed.next(timeout: 5) { stream.take(message) }
            #expect(stream.failures.isEmpty)
            #expect(stream.sizes.first.map { $0 > 200 } == true, "the keyframe lists 200 bodies: \(stream.sizes)")
            #expect(stream.sizes.dropFirst().allSatisfy { $0 <= 8 }, "keep-alives list nothing: \(stream.sizes)")
            #expect(stream.states[stream.ticks.last ?? 0]?.bodies.count == 200)
        }

        @Test(.timeLimit(.minutes(5))) func headlessDynclientPrintsEachPackedFrameAsTheFullSnapshot() throws {
            // A held world steps only when told: the observer (full) and dynclient (packed) see the same ticks.
            let server = try ServerProcess(["--scene", "default", "--held"])
            let observer = try server.connect()
            #expect(observer.join().snapshot != nil)
            let steps = (0..<12).map { _ in "step 3" }.joined(separator: "\n")
            let run = try HeadlessRun.run(["--port", String(server.port), "--headless", "--snapshots", "packed", "--linger", "300"],
                                          stdin: "tap 300 300\n" + steps + "\n")
            #expect(run.exitCode == 0)
            #expect(!run.stdoutLines.contains { $0.hasPrefix(#"{"type":"packed""#) }, "packed lines are printed decoded")
            var printed: [UInt64: Snapshot] = [:]
            for line in run.stdoutLines {
                if case let .snapshot(snapshot)? = ServerMessage.decode(line) { printed[snapshot.tick] = snapshot }
            }
            var both = PackedSideBySide()
            while let message = observer.next(timeout: 1) {
                if case let .snapshot(snapshot) = message { both.full[snapshot.tick] = snapshot }
            }
            both.packed.states = printed
            let (common, differing) = both.comparison()
            #expect(common.count >= 12, "every step's state: \(common.count) ticks in common")
            #expect(differing.isEmpty, "\(differing.prefix(4))")
            // The printed numbers are the full snapshot's to the hundredth (positions) and thousandth (angles).
            let moved = common.compactMap { printed[$0] }.flatMap(\.bodies).filter { $0.x != $0.x.rounded() }
            #expect(!moved.isEmpty)
            let whole = { (value: Double) in abs(value - value.rounded()) < 1e-6 }
            #expect(moved.allSatisfy { whole($0.x * 100) && whole($0.y * 100) && whole($0.angle * 1000) })
        }
    }
}
