import ArgumentParser
import NetProtocol

/// `dynbench codec`: times `SnapshotEncoder` on an N-body snapshot and framing + decoding of a realistic mix
/// of client command lines, and (unless `--no-sizes`) measures bytes per moving body of full, compact and
/// packed frames in three scenes (`WireSizes`), printing one JSON line.
struct CodecBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codec",
        abstract: "Snapshot encoding and command decoding speed of the wire codec (prints one JSON line).")

    @Option(help: "Bodies in the encoded snapshot.")
    var bodies = 1000

    @Option(help: "Timed snapshot encodes.")
    var encodes = 2000

    @Option(help: "Timed batches of decoded command lines.")
    var batches = 200

    @Option(help: "Command lines per decode batch.")
    var batchLines = 1000

    @Flag(help: "Skip the bytes per moving body of full, compact and packed frames (which start a dynserver).")
    var noSizes = false

    @Option(help: "The dynserver binary for the sizes (default: next to dynbench).")
    var serverPath: String?

    @Option(help: "Encodes of each recorded frame sequence, for the compact and packed encode times.")
    var encodeRounds = 20

    @Option(help: "Keep each scenario's recorded snapshots in DIR/NAME.ndjson and reuse them when present (no server: for valgrind, which cannot start one).")
    var framesDir: String?

    @Option(help: "Only encode this scenario's frames (a name of the sizes, or small_frame) --encode-rounds times in --encode-mode, for callgrind: valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*encodeCompactSequence*' (or '*encodePackedSequence*').")
    var encodeCost: String?

    @Option(help: "The mode of --encode-cost: compact, packed_tcp or packed_ws.")
    var encodeMode = "compact"

    func run() throws {
        guard bodies > 0, encodes > 0, batches > 0, batchLines > 0 else {
            throw ValidationError("every count must be positive")
        }
        if let encodeCost {
            try runEncodeCost(encodeCost)
            return
        }
        let encode = measureEncode()
        let decode = try measureDecode()
        var sizes = ""
        if !noSizes {
            let results = try WireSizes.scenarios().map {
                try WireSizes.run($0, serverPath: serverPath, encodeRounds: encodeRounds, framesDir: framesDir).json($0.name)
            }
            let small = FrameEncodeCost(frames: FrameEncodeCost.smallFrames(from: nil))
            sizes = ",\"sizes\":{" + results.joined(separator: ",") + "}"
                + ",\"small_frame\":{\"encode_ns_per_frame\":" + WireSizes.json(WireSizes.encodeNs(small, rounds: encodeRounds)) + "}"
        }
        print(#"{"bench":"codec","snapshot_bodies":\#(bodies),"encode_us_median":\#(format(encode.median)),"#
            + #""encode_us_p99":\#(format(encode.p99)),"snapshot_bytes":\#(encode.bytes),"#
            + #""decode_lines_per_s":\#(Int(decode.linesPerSecond)),"decode_ns_per_line_median":\#(format(decode.median))"#
            + sizes + "}")
    }

    /// Encodes one scenario's frames in one mode, nothing else (see `encodeCost`); prints what it did.
    private func runEncodeCost(_ name: String) throws {
        guard let mode = FrameEncodeCost.Mode(rawValue: encodeMode) else { throw ValidationError("unknown --encode-mode \(encodeMode)") }
        let frames: [Snapshot]
        if name == "small_frame" {
            frames = FrameEncodeCost.smallFrames(from: nil)
        } else {
            guard let scenario = WireSizes.scenarios().first(where: { $0.name == name }) else {
                throw ValidationError("unknown scenario \(name)")
            }
            frames = try WireSizes.snapshots(WireSizes.lines(scenario, serverPath: serverPath, framesDir: framesDir))
        }
        let cost = FrameEncodeCost(frames: frames)
        let bytes = cost.run(mode, rounds: encodeRounds)
        print(#"{"bench":"codec","encode_cost":"\#(name)","mode":"\#(mode.rawValue)","frames":\#(cost.frameCount(rounds: encodeRounds)),"bytes":\#(bytes)}"#)
    }

    /// Microseconds per encode (median, p99) and the line's size.
    private func measureEncode() -> (median: Double, p99: Double, bytes: Int) {
        var random = SplitMix(seed: 42)
        let states = (1...bodies).map { id in
            BodyState(id: id, x: random.next(in: 0..<800), y: random.next(in: 0..<600), angle: random.next(in: -3.2..<3.2),
                      vx: random.next(in: -500..<500), vy: random.next(in: -500..<500), av: random.next(in: -10..<10))
        }
        let drags = (1...4).map { DragInfo(client: $0, name: "player\($0)", body: $0, x: 100.25 * Double($0), y: 200, offset: Point(3.5, -2)) }
        var encoder = SnapshotEncoder()
        var size = 0
        var samples: [Double] = []
        samples.reserveCapacity(encodes)
        states.withUnsafeBufferPointer { buffer in
            for warmup in 0..<50 { size = encoder.encode(tick: UInt64(warmup), time: 1, paused: false, clients: 4, bodies: buffer, drags: drags).count }
            let clock = ContinuousClock()
            for tick in 0..<encodes {
                let start = clock.now
                let line = encoder.encode(tick: UInt64(tick), time: Double(tick) / 60, paused: false, clients: 4, bodies: buffer, drags: drags)
                samples.append(microseconds(clock.now - start))
                size = line.count
            }
        }
        samples.sort()
        return (percentile(samples, 0.5), percentile(samples, 0.99), size)
    }

    /// Frames and decodes batches of command lines: lines per second overall and the median ns per line.
    private func measureDecode() throws -> (linesPerSecond: Double, median: Double) {
        let mix = CodecBench.commandMix()
        var stream: [UInt8] = []
        for index in 0..<batchLines { stream += mix[index % mix.count] }
        var framer = LineFramer()
        var decoded = 0, failed = 0
        let clock = ContinuousClock()
        var samples: [Double] = []
        var total = Duration.zero
        for batch in -5..<batches {
            let start = clock.now
            stream.withUnsafeBytes { bytes in
                framer.feed(bytes) { event in
                    guard case let .line(line) = event else { failed += 1; return }
                    switch ClientMessage.decode(line) {
                    case .success: decoded += 1
                    case .failure: failed += 1
                    }
                }
            }
            let elapsed = clock.now - start
            guard batch >= 0 else { continue }
            total += elapsed
            samples.append(microseconds(elapsed) * 1000 / Double(batchLines))
        }
        guard failed == 0 else { throw ValidationError("\(failed) benchmark lines failed to decode") }
        samples.sort()
        let seconds = microseconds(total) / 1_000_000
        return (Double(batches * batchLines) / seconds, percentile(samples, 0.5))
    }

    /// The command lines a busy client sends, each as it travels on the wire.
    static func commandMix() -> [[UInt8]] {
        let commands: [ClientMessage] = [
            ClientMessage(id: .number("101"), .tap(x: 412.25, y: 300.5, body: nil, mode: .continuous)),
            ClientMessage(.drag(phase: .move, x: 233.75, y: 180.125, body: nil)),
            ClientMessage(.drag(phase: .move, x: 236.5, y: 182, body: nil)),
            ClientMessage(id: .string("push-7"), .push(body: 7, direction: .angle(1.5707963, magnitude: 2.5),
                                                       mode: .instantaneous, active: nil, offset: nil)),
            ClientMessage(id: .number("102"), .set(body: 3, patch: PropertyPatch(elasticity: 0.8, friction: 0.3, color: "#ff8800"))),
            ClientMessage(id: .number("103"), .spawn(shape: .rect, width: 40, height: 40, x: 120.5, y: 80, angle: 0.3,
                                                     vx: nil, vy: nil, patch: PropertyPatch(density: 2, color: "#3366cc"))),
            ClientMessage(id: .number("104"), .ping(t: .number(1_712_345_678.123))),
        ]
        return commands.map { $0.encoded() }
    }

    private func microseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1e6 + Double(parts.attoseconds) / 1e12
    }

    private func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }

    private func format(_ value: Double) -> String {
        String((value * 100).rounded() / 100)
    }
}

/// A small deterministic generator so every run encodes the same snapshot.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(in range: Range<Double>) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return range.lowerBound + Double(z >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
