import Testing
@testable import NetProtocol

/// Packed frames end to end in memory (docs/PROTOCOL.md, "packed"): what the encoder writes against a
/// baseline, the applier turns back into exactly the server's quantized table.
@Suite(.timeLimit(.minutes(1))) struct PackedFrameTests {
    private func table(_ tick: UInt64, time: Int64 = 0, _ rows: [(Int, Int64, Int64, Int64)]) -> PackedTable {
        PackedTable(tick: tick, timeMs: time, ids: rows.map(\.0), x: rows.map(\.1), y: rows.map(\.2), angle: rows.map(\.3))
    }

    private func same(_ a: PackedTable?, _ b: PackedTable) -> Bool {
        guard let a else { return false }
        return a.tick == b.tick && a.timeMs == b.timeMs && a.ids == b.ids && a.x == b.x && a.y == b.y && a.angle == b.angle
    }

    @Test func keyframeCarriesEveryBodyFlagsClientsAndDrags() throws {
        let t = table(1234, time: 20_567, [(1, 6600, 4804, 0), (2, -16, 12_800, -40_000), (9, 0, 0, 65_536)])
        let drag = DragInfo(client: 7, name: "alice é", body: 1, x: 400, y: 280.25, offset: Point(-12.5, -20.25))
        let bytes = PackedEncoder.encode(t, base: nil, previous: nil, paused: true, held: true, clients: 3, drags: [drag])
        var applier = PackedApplier()
        let snapshot = try applier.apply(bytes)
        #expect(same(applier.base, t))
        #expect(snapshot.tick == 1234 && snapshot.time == 20.567 && snapshot.paused && snapshot.held && snapshot.clients == 3)
        #expect(snapshot.drags == [drag])
        #expect(snapshot.bodies.map(\.id) == [1, 2, 9])
        #expect(snapshot.bodies[0].x == 412.5 && snapshot.bodies[0].y == 300.25)
        #expect(snapshot.bodies[1].x == -1 && abs(snapshot.bodies[1].angle - -40_000 * 2 * .pi / 65_536) < 1e-12)
        #expect(abs(snapshot.bodies[2].angle - 2 * .pi) < 1e-12)
    }

    @Test func aRestingWorldCostsOnlyTheHeader() throws {
        let rows: [(Int, Int64, Int64, Int64)] = (1...1000).map { (i: Int) -> (Int, Int64, Int64, Int64) in
            (i, Int64(i) * 16, 4000, 0)
        }
        let a = table(100, time: 1000, rows), b = table(102, time: 1033, rows), c = table(104, time: 1067, rows)
        var applier = PackedApplier()
        _ = try applier.apply(PackedEncoder.encode(a, base: nil, previous: nil, paused: false, held: false, clients: 1, drags: []))
        let delta = PackedEncoder.encode(b, base: a, previous: nil, paused: false, held: false, clients: 1, drags: [])
        // flags, tick +2, time +33 ms, 1 client, no body listed.
        #expect(delta.count <= 4, "\(delta)")
        _ = try applier.apply(delta)
        let again = PackedEncoder.encode(c, base: b, previous: a, paused: true, held: false, clients: 1, drags: [])
        #expect(again.count <= 4)
        #expect(try applier.apply(again).paused)
        #expect(same(applier.base, c))
    }

    @Test func onlyBodiesOffTheirPredictionAreListed() throws {
        // Body 1 rests, 2 moves at a steady 5/16 pt a tick, 3 speeds up.
        let a = table(10, [(1, 100, 100, 0), (2, 200, 200, 10), (3, 300, 300, 0)])
        let b = table(12, [(1, 100, 100, 0), (2, 210, 200, 20), (3, 300, 310, 0)])
        let c = table(14, [(1, 100, 100, 0), (2, 220, 200, 30), (3, 300, 330, 0)])
        let d = table(20, [(1, 100, 100, 0), (2, 250, 200, 60), (3, 300, 390, 0)])
        var applier = PackedApplier()
        _ = try applier.apply(PackedEncoder.encode(a, base: nil, previous: nil, paused: false, held: false, clients: 1, drags: []))
        let ab = PackedEncoder.encode(b, base: a, previous: nil, paused: false, held: false, clients: 1, drags: [])
        _ = try applier.apply(ab)
        #expect(same(applier.base, b))
        // 2 keeps its speed (no cost); 3 is 10/16 pt past its prediction.
        let bc = PackedEncoder.encode(c, base: b, previous: a, paused: false, held: false, clients: 1, drags: [])
        #expect(bc.count < ab.count)
        _ = try applier.apply(bc)
        #expect(same(applier.base, c))
        // A slow client skipped frames: 6 ticks ahead of a 2-tick step, the prediction scales (3 times the step).
        let cd = PackedEncoder.encode(d, base: c, previous: b, paused: false, held: false, clients: 1, drags: [])
        _ = try applier.apply(cd)
        #expect(same(applier.base, d))
        let onlyThree = PackedEncoder.encode(table(20, [(1, 100, 100, 0), (2, 250, 200, 60), (3, 300, 391, 0)]), base: c,
                                             previous: b, paused: false, held: false, clients: 1, drags: [])
        #expect(cd.count <= onlyThree.count)
    }

    @Test func randomWalksRoundTripExactlyFrameAfterFrame() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let count = Int.random(in: 0...300, using: &generator)
            let ids = (0..<count).map { $0 * Int.random(in: 1...3, using: &generator) + 1 }
            var x = ids.map { _ in Int64.random(in: -100_000...100_000, using: &generator) }
            var y = x.map { $0 / 2 }
            var angle = x.map { _ in Int64.random(in: -400_000...400_000, using: &generator) }
            var tick: UInt64 = UInt64.random(in: 0...1_000_000, using: &generator)
            var time = Int64(tick) * 17
            var sent: [PackedTable] = [PackedTable(tick: tick, timeMs: time, ids: ids, x: x, y: y, angle: angle)]
            var applier = PackedApplier()
            var bytes = PackedEncoder.encode(sent[0], base: nil, previous: nil, paused: false, held: false, clients: 2, drags: [])
            _ = try applier.apply(bytes)
            #expect(same(applier.base, sent[0]))
            for frame in 1..<30 {
                tick += UInt64.random(in: 0...12, using: &generator)
                time += Int64.random(in: -5...200, using: &generator)
                let scale = Int64(1) << Int64.random(in: 0...20, using: &generator)
                for i in 0..<count where Bool.random(using: &generator) {
                    x[i] += Int64.random(in: -scale...scale, using: &generator)
                    y[i] += Int64.random(in: -3...3, using: &generator)
                    angle[i] += Int64.random(in: -scale...scale, using: &generator)
                }
                let current = PackedTable(tick: tick, timeMs: time, ids: ids, x: x, y: y, angle: angle)
                let previous = frame >= 2 ? sent[frame - 2] : nil
                bytes = PackedEncoder.encode(current, base: sent[frame - 1], previous: previous, paused: false, held: false,
                                             clients: frame, drags: [])
                let snapshot = try applier.apply(bytes)
                #expect(snapshot.clients == frame)
                #expect(same(applier.base, current))
                sent.append(current)
            }
        }
    }

    @Test func theEncoderWritesTheReferenceEncodersBytes() {
        var generator = SystemRandomNumberGenerator()
        let drag = DragInfo(client: 3, name: "bob", body: 2, x: 10.25, y: -3, offset: Point(1, 2))
        for round in 0..<40 {
            let count = Int.random(in: 0...200, using: &generator)
            let ids = (0..<count).map { $0 * Int.random(in: 1...5, using: &generator) + Int.random(in: 0...2, using: &generator) }
            // Some rounds reach the extremes of the integers (codes longer than one store).
            let wide: Int64 = round % 4 == 0 ? Int64.max : 200_000
            func column() -> [Int64] { ids.map { _ in Int64.random(in: -wide...wide, using: &generator) } }
            var tick = UInt64.random(in: 0...1_000_000, using: &generator)
            var tables = [PackedTable(tick: tick, timeMs: Int64(tick) * 17, ids: ids, x: column(), y: column(), angle: column())]
            for _ in 0..<8 {
                let last = tables.last!
                tick += UInt64.random(in: 0...6, using: &generator)
                let scale = Int64(1) << Int64.random(in: 0...24, using: &generator)
                let moved = { (values: [Int64]) in
                    values.map { Bool.random(using: &generator) ? $0 &+ Int64.random(in: -scale...scale, using: &generator) : $0 }
                }
                tables.append(PackedTable(tick: tick, timeMs: last.timeMs + 33, ids: ids, x: moved(last.x), y: moved(last.y),
                                          angle: moved(last.angle)))
            }
            for i in tables.indices {
                let base = i >= 1 ? tables[i - 1] : nil, previous = i >= 2 ? tables[i - 2] : nil
                let drags = i % 3 == 1 ? [drag] : []
                let fast = PackedEncoder.encode(tables[i], base: base, previous: previous, paused: i % 2 == 0,
                                                held: i % 5 == 0, clients: i, drags: drags)
                let plain = PackedReferenceEncoder.encode(tables[i], base: base, previous: previous, paused: i % 2 == 0,
                                                          held: i % 5 == 0, clients: i, drags: drags)
                #expect(fast == plain, "round \(round), frame \(i), \(count) bodies")
            }
        }
    }

    @Test func angleStepsRoundAsRoundedDoesHalvesAwayFromZero() {
        var generator = SystemRandomNumberGenerator()
        var milli: [Int64] = [0, 1, -1, 1 << 40, -(1 << 40), 3142, -3142, 6283, 1_000_000]
        milli += (0..<20_000).map { _ in Int64.random(in: -(1 << 41)...(1 << 41), using: &generator) >> Int64.random(in: 0...40, using: &generator) }
        for m in milli {
            let clamped = min(max(m, -(1 << 40)), 1 << 40)
            let expected = Int64((Double(clamped) / 1000 / PackedCodes.radiansPerStep).rounded())
            #expect(PackedCodes.angleSteps(milli: m) == expected, "milli \(m)")
        }
    }

    @Test func quantizedPosesAreWithinAThirtySecondOfAPointAndATenThousandthOfARadian() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let centi = Int64.random(in: -10_000_000...10_000_000, using: &generator)
            let milli = Int64.random(in: -100_000...100_000, using: &generator)
            let x = Double(PackedCodes.sixteenths(centi: centi)) / 16
            #expect(abs(x - Double(centi) / 100) < 1.0 / 32)
            let angle = Double(PackedCodes.angleSteps(milli: milli)) * PackedCodes.radiansPerStep
            #expect(abs(angle - Double(milli) / 1000) < 1e-4)
        }
        #expect(PackedCodes.sixteenths(centi: 3) == 0 && PackedCodes.sixteenths(centi: 4) == 1)
        #expect(PackedCodes.sixteenths(centi: -3) == 0 && PackedCodes.sixteenths(centi: -4) == -1)
    }

    @Test func aDeltaNeedsAKeyframeAndAChangedBodySetMakesOne() throws {
        let a = table(1, [(1, 0, 0, 0)]), b = table(2, [(1, 16, 0, 0)])
        var applier = PackedApplier()
        let delta = PackedEncoder.encode(b, base: a, previous: nil, paused: false, held: false, clients: 1, drags: [])
        #expect(throws: PackedDecodeError.self) { try applier.apply(delta) }
        #expect(applier.tick == nil)
        let other = table(3, [(1, 16, 0, 0), (2, 5, 5, 5)])
        #expect(PackedEncoder.deltaBase(other, a) == nil)
        let key = PackedEncoder.encode(other, base: a, previous: nil, paused: false, held: false, clients: 1, drags: [])
        #expect(key[0] & 0x80 != 0)
        _ = try applier.apply(key)
        #expect(same(applier.base, other))
    }

    @Test func brokenAndHostileBytesAreRefusedAndChangeNothing() throws {
        let rows: [(Int, Int64, Int64, Int64)] = (1...50).map { (i: Int) -> (Int, Int64, Int64, Int64) in
            (i, Int64(i) * 37, Int64(i) * -11, Int64(i) * 1000)
        }
        let a = table(5, rows)
        let drag = DragInfo(client: 1, name: "bob", body: 3, x: 1, y: 2, offset: Point(3, 4))
        let key = PackedEncoder.encode(a, base: nil, previous: nil, paused: false, held: false, clients: 1, drags: [drag])
        var applier = PackedApplier()
        _ = try applier.apply(key)
        // Every strict prefix of a valid frame is refused.
        for length in 0..<key.count {
            var copy = applier
            #expect(throws: PackedDecodeError.self) { try copy.apply(Array(key.prefix(length))) }
            #expect(same(copy.base, a))
        }
        #expect(throws: PackedDecodeError.self) { try applier.apply(key + [0]) }
        #expect(throws: PackedDecodeError.self) { try applier.apply([0x81]) }
        // A delta listing a body past the baseline's end.
        var w = PackedReferenceBitWriter()
        w.write(0, bits: 8); w.golomb(1, k: 0); w.signedGolomb(0, k: 4); w.golomb(1, k: 0)
        w.golomb(1, k: 0); for _ in 0..<4 { w.write(0, bits: 4) }
        w.golomb(50, k: 0); w.golomb(0, k: 0); w.golomb(0, k: 0); w.golomb(0, k: 0)
        #expect(throws: PackedDecodeError.self) { try applier.apply(w.bytes) }
        // A keyframe claiming a billion bodies, a drag name that is not UTF-8.
        w = PackedReferenceBitWriter()
        w.write(0x80, bits: 8); w.golomb(1, k: 0); w.signedGolomb(0, k: 0); w.golomb(0, k: 0); w.golomb(1_000_000_000, k: 0)
        #expect(throws: PackedDecodeError.self) { try applier.apply(w.bytes) }
        w = PackedReferenceBitWriter()
        w.write(0x90, bits: 8); w.golomb(1, k: 0); w.signedGolomb(0, k: 0); w.golomb(0, k: 0)
        w.golomb(1, k: 0); w.signedGolomb(1, k: 0); w.golomb(1, k: 0); w.write(0xFF, bits: 8); w.signedGolomb(1, k: 0)
        for _ in 0..<4 { w.signedGolomb(0, k: 8) }
        w.golomb(0, k: 0)
        #expect(throws: PackedDecodeError.self) { try applier.apply(w.bytes) }
        #expect(same(applier.base, a))
        // Random bytes: refused or applied, never a trap.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var copy = applier
            _ = try? copy.apply(bytes)
        }
    }

    /// The worked example of docs/PROTOCOL.md ("packed"), byte for byte, both ways.
    @Test func theDocumentedExampleIsWhatTheCodecWritesAndReads() throws {
        let key = table(10, time: 167, [(1, 1600, 800, 0)])
        let moved = table(12, time: 200, [(1, 1608, 800, 0)])
        let steady = table(14, time: 233, [(1, 1616, 800, 0)])
        let hex = { (bytes: [UInt8]) in bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ") }
        let frames = [PackedEncoder.encode(key, base: nil, previous: nil, paused: false, held: false, clients: 1, drags: []),
                      PackedEncoder.encode(moved, base: key, previous: nil, paused: false, held: false, clients: 1, drags: []),
                      PackedEncoder.encode(steady, base: moved, previous: key, paused: false, held: false, clients: 1, drags: [])]
        #expect(frames.map(hex) == ["80 16 01 4F 48 32 C3 C8 0E 40 80", "00 65 24 81 40 38 60", "00 65 25"])
        #expect(zip([10, 12, 14], frames).map { String(decoding: PackedLine.encode(tick: $0, frame: $1), as: UTF8.self) } == [
            #"{"type":"packed","tick":10,"data":"gBYBT0gyw8gOQIA="}"# + "\n", #"{"type":"packed","tick":12,"data":"AGUkgUA4YA=="}"# + "\n",
            #"{"type":"packed","tick":14,"data":"AGUl"}"# + "\n"])
        var applier = PackedApplier()
        let states = try frames.map { try applier.apply($0) }
        #expect(states.map(\.tick) == [10, 12, 14] && states.map(\.time) == [0.167, 0.2, 0.233])
        #expect(states.map { $0.bodies[0].x } == [100, 100.5, 101] && states.allSatisfy { $0.bodies[0].y == 50 })
    }

    @Test func theTCPLineCarriesTheBytesInBase64() throws {
        let frame: [UInt8] = [0x80, 0xFF, 0x00, 0x41]
        let line = PackedLine.encode(tick: 77, frame: frame)
        #expect(String(decoding: line, as: UTF8.self) == #"{"type":"packed","tick":77,"data":"gP8AQQ=="}"# + "\n")
        #expect(ServerMessage.decode(line) == .packed(tick: 77, data: frame))
        #expect(ServerMessage.decode(#"{"type":"packed","tick":77,"data":"gP8AQQ="}"#) == nil)
        #expect(ServerMessage.decode(#"{"type":"packed","tick":77,"data":"gP8A!Q=="}"#) == nil)
        #expect(PackedLine.decodeData("") == [])
    }
}
