import Testing
@testable import NetProtocol

/// The packed encoder a room keeps across frames (docs/ARCHITECTURE.md, packed frames): its tables are the
/// quantization of `PackedTable(PoseTable)`, a table anyone still holds is never refilled, and its frames and
/// their shapes are the reference encoder's bytes however its scratch was used before.
@Suite(.timeLimit(.minutes(1))) struct PackedFrameEncoderTests {
    /// `count` bodies with random poses (some far out), ids rising with gaps. (No NaN: it would count in the
    /// process-wide `NonFiniteValues` other tests read.)
    private func states(_ count: Int, idStep: Int = 2, using generator: inout SystemRandomNumberGenerator) -> [BodyState] {
        (0..<count).map { i in
            let wild = Int.random(in: 0..<50, using: &generator)
            let x = wild == 0 ? 3e17 : wild == 1 ? -1e13 : Double.random(in: -2000...2000, using: &generator)
            return BodyState(id: i * idStep + 1, x: x, y: Double.random(in: -2000...2000, using: &generator),
                             angle: Double.random(in: -40...40, using: &generator))
        }
    }

    private func same(_ a: PackedTable, _ b: PackedTable) -> Bool {
        a.tick == b.tick && a.timeMs == b.timeMs && a.ids == b.ids && a.x == b.x && a.y == b.y && a.angle == b.angle
    }

    @Test func tablesAreThePoseTablesQuantizationAndHeldOnesNeverChange() {
        var generator = SystemRandomNumberGenerator()
        let encoder = PackedFrameEncoder()
        var held: [(table: PackedTable, copy: PackedTable)] = []
        var seen = Set<ObjectIdentifier>()
        for frame in 0..<60 {
            // The body set changes now and then (a scene), and its size with it.
            let bodies = states(frame < 20 ? 40 : frame < 40 ? 7 : 120, idStep: frame < 40 ? 2 : 3, using: &generator)
            let time = Double(frame) / 30
            let table = bodies.withUnsafeBufferPointer { encoder.table(tick: UInt64(frame * 2), time: time, bodies: $0) }
            let expected = PackedTable(bodies.withUnsafeBufferPointer { PoseTable(tick: UInt64(frame * 2), bodies: $0) }, time: time)
            #expect(same(table, expected), "frame \(frame)")
            seen.insert(ObjectIdentifier(table))
            // A client holds some tables a while (its baseline and the one before), then lets go.
            held.append((table, expected))
            if held.count > 3 { held.removeFirst(Int.random(in: 1...2, using: &generator)) }
            for (table, copy) in held { #expect(same(table, copy), "a held table was refilled") }
        }
        #expect(seen.count <= 6, "tables nobody holds are reused (\(seen.count) made)")
    }

    @Test func framesAndTheirShapesAreTheReferenceBytesWhateverCameBefore() throws {
        var generator = SystemRandomNumberGenerator()
        let encoder = PackedFrameEncoder()
        let drag = DragInfo(client: 3, name: "zoë", body: 2, x: 10.25, y: -3, offset: Point(1, 2))
        var last: (table: PackedTable, base: PackedTable?)?
        var bodies = states(150, using: &generator)
        for frame in 0..<40 {
            // Big and small frames in turn, so the scratch is reused at every size.
            if frame % 10 == 0 { bodies = states(frame % 20 == 0 ? 150 : 3, using: &generator) }
            for i in bodies.indices where Bool.random(using: &generator) { bodies[i].x += Double.random(in: -40...40, using: &generator) }
            let table = bodies.withUnsafeBufferPointer { encoder.table(tick: UInt64(100 + frame * 2), time: Double(frame) / 30, bodies: $0) }
            let base = PackedEncoder.deltaBase(table, last?.table)
            let previous = base == nil ? nil : last?.base
            let drags = frame % 3 == 0 ? [drag] : []
            let expected = PackedReferenceEncoder.encode(table, base: base, previous: previous, paused: frame % 2 == 0,
                                                         held: false, clients: frame, drags: drags)
            let bytes = Array(encoder.encode(table, checkedBase: base, previous: previous, paused: frame % 2 == 0, held: false,
                                             clients: frame, drags: drags))
            #expect(bytes == expected, "frame \(frame)")
            let line = PackedLine.encode(tick: table.tick, frame: expected)
            let reference = PackedOutput(tick: table.tick, frame: expected)
            for (asLine, asBinary) in [(true, false), (false, true), (true, true)] {
                let output = encoder.output(table, checkedBase: base, previous: previous, paused: frame % 2 == 0, held: false,
                                            clients: frame, drags: drags, line: asLine, webSocket: asBinary)
                // Either shape, built at once or later from what was kept, is the same frame.
                #expect(output.line.array == line, "frame \(frame)")
                #expect(output.webSocketFrame.array == reference.webSocketFrame.array, "frame \(frame)")
            }
            last = (table, base)
        }
    }
}
