import ArgumentParser
import Foundation
import NetProtocol

/// Bytes per moving body of full snapshots, compact frames and packed frames (TCP line and WebSocket
/// message), every byte of each frame counted (docs/PROTOCOL.md, "packed"): a real held `dynserver` steps
/// a scenario one frame at a time (deterministic, so the counts do not depend on load) while a client
/// records the full snapshots; the same states are then encoded as compact and packed frames, each against
/// the frame before it, as a client that keeps up gets them.
struct WireSizes {
    struct Scenario {
        let name: String
        let serverArguments: [String]
        /// Command lines that set the scene up.
        let setup: [String]
        /// Lines sent once the scene is set up: what starts the motion.
        let start: [String]
        let frames: Int
    }

    struct Result {
        var frames = 0
        var moving = 0
        var full = 0, compact = 0, packedTCP = 0, packedWS = 0
        /// Wall ns per frame of each `FrameEncodeCost.Mode` (callgrind's instruction counts are the load-robust figure).
        var encodeNs: [FrameEncodeCost.Mode: Double] = [:]

        func perMoving(_ bytes: Int) -> String { moving == 0 ? "null" : String((Double(bytes) / Double(moving) * 10).rounded() / 10) }

        func json(_ name: String) -> String {
            "\"\(name)\":{\"frames\":\(frames),\"moving_bodies\":\(moving),"
                + "\"bytes_per_moving_body\":{\"full\":\(perMoving(full)),\"compact\":\(perMoving(compact)),"
                + "\"packed_tcp\":\(perMoving(packedTCP)),\"packed_ws\":\(perMoving(packedWS))},"
                + "\"encode_ns_per_frame\":" + WireSizes.json(encodeNs) + "}"
        }
    }

    /// Two ticks a frame: the server's 30 snapshots a second at 60 ticks a second.
    static let ticksPerFrame = 2

    static func scenarios() -> [Scenario] {
        var random = SplitMix(seed: 7)
        let rain = (0..<300).map { _ in
            #"{"type":"spawn","shape":"ellipse","width":12,"height":12,"x":\#(Int(random.next(in: 20..<780))),"y":\#(Int(random.next(in: 10..<300)))}"#
        }
        let spread = (0..<200).map { i in
            #"{"type":"spawn","shape":"\#(i % 2 == 0 ? "rect" : "ellipse")","width":16,"height":16,"x":400,"y":300}"#
        }
        return [
            // The default scene as a client finds it on joining (items falling, the pendulum swinging), tapped.
            Scenario(name: "default_after_tap", serverArguments: ["--scene", "default"], setup: [],
                     start: [#"{"type":"tap","x":300,"y":450}"#], frames: 90),
            Scenario(name: "rain_300", serverArguments: ["--scene", "empty"], setup: rain, start: [], frames: 60),
            Scenario(name: "spread_200", serverArguments: ["--scene", "empty"],
                     setup: [#"{"type":"gravity","magnitude":0}"#] + spread, start: [], frames: 60),
        ]
    }

    /// Runs one scenario on its own server (or reads what an earlier run kept in `framesDir`) and measures it.
    static func run(_ scenario: Scenario, serverPath: String?, encodeRounds: Int, framesDir: String? = nil) throws -> Result {
        try measure(lines(scenario, serverPath: serverPath, framesDir: framesDir), encodeRounds: encodeRounds)
    }

    /// The full snapshot lines of the scenario's frames, from a held server stepped one frame at a time.
    private static func record(_ scenario: Scenario, serverPath: String?) throws -> [[UInt8]] {
        let server = try BenchServer.start(path: serverPath, clients: 4, limits: [
            "--rate", "1000000", "--burst", "1000000", "--held", "--world", "800x600"] + scenario.serverArguments)
        defer { server.stop() }
        let client = try BenchSocket(port: server.port)
        var id = 0
        func sync() throws {
            id += 1
            guard client.tick(id: id) != nil else { throw ValidationError("\(scenario.name): no pong from the server") }
        }
        for line in scenario.setup { try client.send(line) }
        try sync()
        for line in scenario.start { try client.send(line) }
        var lines: [[UInt8]] = []
        for _ in 0...scenario.frames {
            id += 1
            try client.send(#"{"type":"step","ticks":\#(ticksPerFrame),"id":\#(id)}"#)
            var snapshotLine: [UInt8]?
            while true {
                guard let line = client.nextLine(timeout: 30) else { throw ValidationError("\(scenario.name): the server went quiet") }
                if line.starts(with: Array(#"{"type":"snapshot""#.utf8)) { snapshotLine = line }
                if line.starts(with: Array(#"{"type":"ack""#.utf8)) { break }
            }
            guard let snapshotLine else { throw ValidationError("\(scenario.name): a step without a snapshot") }
            lines.append(snapshotLine + [0x0A])
        }
        return lines
    }

    /// The snapshots of recorded `snapshot` lines.
    static func snapshots(_ lines: [[UInt8]]) throws -> [Snapshot] {
        try lines.map { line in
            guard case let .snapshot(snapshot)? = line.withUnsafeBytes({ ServerMessage.decode($0) }) else {
                throw ValidationError("a recorded snapshot does not decode")
            }
            return snapshot
        }
    }

    /// The recorded lines of `scenario` (kept in `framesDir`, or recorded now and kept there).
    static func lines(_ scenario: Scenario, serverPath: String?, framesDir: String?) throws -> [[UInt8]] {
        let file = framesDir.map { "\($0)/\(scenario.name).ndjson" }
        if let file, let text = try? String(contentsOfFile: file, encoding: .utf8) {
            return text.split(separator: "\n").map { Array($0.utf8) + [0x0A] }
        }
        let lines = try record(scenario, serverPath: serverPath)
        if let file {
            try String(decoding: lines.joined(), as: UTF8.self).write(toFile: file, atomically: true, encoding: .utf8)
        }
        return lines
    }

    /// Sizes (and encode times) of the frames after the first, each against the one before it.
    static func measure(_ lines: [[UInt8]], encodeRounds: Int) throws -> Result {
        let snapshots = try snapshots(lines)
        let poses = snapshots.map { s in s.bodies.withUnsafeBufferPointer { PoseTable(tick: s.tick, bodies: $0) } }
        let packed = zip(poses, snapshots).map { PackedTable($0, time: $1.time) }
        var result = Result()
        for i in 1..<snapshots.count {
            let s = snapshots[i]
            result.frames += 1
            result.moving += (0..<poses[i].count).filter { j in
                poses[i].ids == poses[i - 1].ids ? (poses[i].x[j] != poses[i - 1].x[j] || poses[i].y[j] != poses[i - 1].y[j]
                    || poses[i].angle[j] != poses[i - 1].angle[j]) : true
            }.count
            result.full += lines[i].count
            result.compact += FrameEncoder.encode(poses[i], base: poses[i - 1], time: s.time, paused: s.paused, held: false,
                                                  clients: s.clients, drags: s.drags).count
            let frame = PackedEncoder.encode(packed[i], base: packed[i - 1], previous: i >= 2 ? packed[i - 2] : nil,
                                             paused: s.paused, held: false, clients: s.clients, drags: s.drags)
            result.packedTCP += PackedLine.encode(tick: s.tick, frame: frame).count
            result.packedWS += frame.count + (frame.count < 126 ? 2 : frame.count < 65_536 ? 4 : 10)
        }
        result.encodeNs = encodeNs(FrameEncodeCost(frames: snapshots), rounds: encodeRounds)
        return result
    }

    /// Wall ns per frame of each mode, the modes interleaved round by round.
    static func encodeNs(_ cost: FrameEncodeCost, rounds: Int) -> [FrameEncodeCost.Mode: Double] {
        let clock = ContinuousClock()
        var sink = 0
        var total: [FrameEncodeCost.Mode: Duration] = [:]
        for _ in 0..<max(1, rounds) {
            for mode in FrameEncodeCost.Mode.allCases {
                let start = clock.now
                sink &+= cost.run(mode, rounds: 1)
                total[mode, default: .zero] += clock.now - start
            }
        }
        let frames = Double(max(1, cost.frameCount(rounds: max(1, rounds))))
        return total.mapValues { nanoseconds($0) / frames + (sink == -1 ? 1 : 0) }
    }

    /// `{"compact":N,"packed_tcp":N,"packed_ws":N}`.
    static func json(_ ns: [FrameEncodeCost.Mode: Double]) -> String {
        "{" + FrameEncodeCost.Mode.allCases.map { "\"\($0.rawValue)\":\(Int(ns[$0] ?? 0))" }.joined(separator: ",") + "}"
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}
