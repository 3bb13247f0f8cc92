import Testing
@testable import NetProtocol

/// The bit coder of packed frames (docs/PROTOCOL.md, "packed"): fixed fields, Exp-Golomb codes of every
/// order at the edges of each code length, signed values, and random round trips, written by `PackedBitSink`
/// (the encoder's one writer) and read by `PackedBitReader`; the sink's bytes equal the plain reference
/// writer's for every call.
@Suite(.timeLimit(.minutes(1))) struct PackedBitCoderTests {
    private func bits(_ bytes: [UInt8], count: Int) -> String {
        String(bytes.flatMap { byte in (0..<8).map { (byte >> (7 - $0)) & 1 == 1 ? "1" : "0" } }.prefix(count))
    }

    @Test func fixedFieldsAreWrittenMostSignificantBitFirstAndPaddedWithZeros() throws {
        var w = SinkWriter()
        w.write(0b101, bits: 3)
        w.write(true)
        w.write(0xABCD, bits: 16)
        w.write(0x1_2345_6789, bits: 33)
        #expect(w.bitCount == 53)
        #expect(w.bytes.count == 7)
        #expect(bits(w.bytes, count: 20) == "10111010101111001101")
        #expect(w.bytes.last! & 0b111 == 0)
        var r = PackedBitReader(w.bytes)
        #expect(try r.read(bits: 3) == 0b101)
        #expect(try r.readFlag())
        #expect(try r.read(bits: 16) == 0xABCD)
        #expect(try r.read(bits: 33) == 0x1_2345_6789)
        try r.expectEnd()
    }

    @Test func golombOrderZeroHasTheTextbookCodes() {
        let expected: [UInt64: String] = [0: "1", 1: "010", 2: "011", 3: "00100", 6: "00111", 7: "0001000"]
        for (value, code) in expected {
            var w = SinkWriter()
            w.golomb(value, k: 0)
            #expect(bits(w.bytes, count: w.bitCount) == code, "value \(value)")
        }
        var w = SinkWriter()
        w.golomb(5, k: 2)  // q = 1 -> "010", then the low two bits "01"
        #expect(bits(w.bytes, count: w.bitCount) == "01001")
    }

    @Test func everyOrderRoundTripsAtTheEdgesOfEachCodeLength() throws {
        for k in 0...63 {
            var values: [UInt64] = [0, 1, UInt64.max, UInt64.max - 1, UInt64.max >> 1]
            for length in 0..<64 {
                let edge = (UInt64(1) << UInt64(length)) - 1  // the last value of one length
                values += [edge, edge &+ 1, edge << UInt64(min(k, 63 - length))]
            }
            var w = SinkWriter()
            for value in values { w.golomb(value, k: k) }
            var r = PackedBitReader(w.bytes)
            for value in values { #expect(try r.golomb(k: k) == value, "k \(k) value \(value)") }
            try r.expectEnd()
        }
    }

    @Test func codeLengthsGrowByTwoBitsAtEachPowerOfTwoOfTheQuotient() {
        func length(_ value: UInt64, _ k: Int) -> Int {
            var w = SinkWriter()
            w.golomb(value, k: k)
            return w.bitCount
        }
        for k in [0, 3, 9] {
            #expect(length(0, k) == 1 + k)
            for l in 1..<50 {
                // The first value whose quotient plus one has l + 1 bits, and the value before it.
                let first = ((UInt64(1) << UInt64(l)) - 1) << UInt64(k)
                #expect(length(first, k) == 2 * l + 1 + k, "k \(k) l \(l)")
                #expect(length(first - 1, k) == 2 * l - 1 + k, "k \(k) l \(l)")
            }
        }
    }

    @Test func signedValuesZigzagAndRoundTripAcrossTheWholeRange() throws {
        #expect([0, -1, 1, -2, 2].map(PackedCodes.zigzag) == [0, 1, 2, 3, 4])
        let values: [Int64] = [0, 1, -1, 63, -64, 64, Int64.max, Int64.min, Int64.min + 1, 1 << 40, -(1 << 40)]
        for k in [0, 1, 4, 15, 63] {
            var w = SinkWriter()
            for value in values { w.signedGolomb(value, k: k) }
            var r = PackedBitReader(w.bytes)
            for value in values { #expect(try r.signedGolomb(k: k) == value) }
            try r.expectEnd()
        }
    }

    @Test func randomMixesRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var fields: [(kind: Int, k: Int, value: UInt64)] = []
            for _ in 0..<Int.random(in: 1...60, using: &generator) {
                let kind = Int.random(in: 0...2, using: &generator)
                let width = Int.random(in: 0...64, using: &generator)
                let value = width == 0 ? 0 : UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64(64 - width)
                fields.append((kind, Int.random(in: 0...15, using: &generator), value))
            }
            var w = SinkWriter()
            for field in fields {
                switch field.kind {
                case 0: w.write(field.value, bits: 64 - field.value.leadingZeroBitCount)
                case 1: w.golomb(field.value, k: field.k)
                default: w.signedGolomb(Int64(bitPattern: field.value), k: field.k)
                }
            }
            var r = PackedBitReader(w.bytes)
            for field in fields {
                switch field.kind {
                case 0: #expect(try r.read(bits: 64 - field.value.leadingZeroBitCount) == field.value)
                case 1: #expect(try r.golomb(k: field.k) == field.value)
                default: #expect(try r.signedGolomb(k: field.k) == Int64(bitPattern: field.value))
                }
            }
            try r.expectEnd()
        }
    }

    @Test func readsPastTheEndAndOverlongCodesAreRefused() {
        var r = PackedBitReader([0xFF])
        #expect(throws: PackedDecodeError.self) { try r.read(bits: 9) }
        var zeros = PackedBitReader([UInt8](repeating: 0, count: 20))
        #expect(throws: PackedDecodeError.self) { try zeros.golomb(k: 0) }
        // 64 zeros, a one, then a non-zero 64-bit rest: more than 64 bits.
        var w = SinkWriter()
        w.write(0, bits: 64)
        w.write(1, bits: 1)
        w.write(1, bits: 64)
        var big = PackedBitReader(w.bytes)
        #expect(throws: PackedDecodeError.self) { try big.golomb(k: 0) }
        // A value whose order-k shift would overflow.
        w = SinkWriter()
        w.golomb(UInt64.max, k: 0)
        w.write(0, bits: 3)
        var shifted = PackedBitReader(w.bytes)
        #expect(throws: PackedDecodeError.self) { try shifted.golomb(k: 3) }
        let trailing = PackedBitReader([0x80, 0x00])
        #expect(throws: PackedDecodeError.self) { try trailing.expectEnd() }
        var padded = PackedBitReader([0b1000_0001])
        _ = try? padded.read(bits: 1)
        #expect(throws: PackedDecodeError.self) { try padded.expectEnd() }
    }

    @Test func theChosenOrderIsTheCheapestForTheValues() {
        var histogram = [Int](repeating: 0, count: 65)
        histogram[0] = 100  // all zeros: order 0, one bit each
        #expect(histogram.withUnsafeBufferPointer(PackedCodes.bestOrder) == 0)
        histogram = [Int](repeating: 0, count: 65)
        histogram[10] = 100  // all about 2^9...2^10: order 9 or 10
        #expect((9...10).contains(histogram.withUnsafeBufferPointer(PackedCodes.bestOrder)))
    }

    @Test func theOrderAndItsCostAreTheDirectSumsOverTheHistogram() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let length = Int.random(in: 1...65, using: &generator)
            let histogram = (0..<length).map { _ in Bool.random(using: &generator) ? 0 : Int.random(in: 0...500, using: &generator) }
            var best = 0, bestCost = Int.max
            for k in 0...PackedCodes.maxOrder {
                let cost = histogram.indices.reduce(0) { $0 + histogram[$1] * (2 * max($1 - k, 0) + 1 + k) }
                if cost < bestCost { (best, bestCost) = (k, cost) }
            }
            let chosen = histogram.withUnsafeBufferPointer(PackedCodes.bestOrderAndCost)
            #expect(chosen.order == best && chosen.cost == bestCost, "\(histogram)")
        }
    }

    /// The bytes `PackedBitSink` (the encoder's word-at-a-time output) writes for `writes`.
    private func sinkBytes(_ writes: (inout PackedBitSink) -> Void, bits: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: PackedBitSink.capacity(bits: bits)) { buffer, count in
            var sink = PackedBitSink(buffer)
            writes(&sink)
            count = sink.finish()
        }
    }

    @Test func theSinkWritesWhatTheWriterWritesForEveryOrderAndCodeLength() {
        for k in 0...63 {
            var values: [UInt64] = [0, 1, UInt64.max, UInt64.max - 1, UInt64.max >> 1]
            for length in 0..<64 {
                let edge = (UInt64(1) << UInt64(length)) - 1
                values += [edge, edge &+ 1, edge << UInt64(min(k, 63 - length))]
            }
            var w = PackedReferenceBitWriter()
            for value in values { w.golomb(value, k: k) }
            // Each code is at most 2 * 64 + 1 + k bits; three odd fixed fields shift every code off the byte grid.
            let sunk = sinkBytes({ sink in
                for (i, value) in values.enumerated() {
                    sink.golomb(value, k: k)
                    if i % 3 == 0 { sink.write(0, bits: 0) }
                }
            }, bits: values.count * (129 + k))
            #expect(sunk == w.bytes, "k \(k)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var w = PackedReferenceBitWriter()
            var ops: [(UInt64, Int, Int?)] = []
            for _ in 0..<Int.random(in: 0...60, using: &generator) {
                let value = UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator)
                if Bool.random(using: &generator) {
                    let bits = Int.random(in: 0...64, using: &generator)
                    ops.append((value, bits, nil))
                    w.write(value, bits: bits)
                } else {
                    let k = Int.random(in: 0...15, using: &generator)
                    ops.append((value, 0, k))
                    w.golomb(value, k: k)
                }
            }
            let sunk = sinkBytes({ sink in
                for (value, bits, k) in ops {
                    if let k { sink.golomb(value, k: k) } else { sink.write(value, bits: bits) }
                }
            }, bits: w.bitCount)
            #expect(sunk == w.bytes)
        }
    }
}

/// `PackedBitSink` over a buffer big enough for any of these tests' writes, with a growing writer's calls.
struct SinkWriter {
    private final class Buffer {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
        deinit { bytes.deallocate() }
    }
    private let buffer = Buffer()
    private var sink: PackedBitSink

    init() { sink = PackedBitSink(buffer.bytes) }

    mutating func write(_ value: UInt64, bits: Int) { sink.write(value, bits: bits) }
    mutating func write(_ flag: Bool) { sink.write(flag ? 1 : 0, bits: 1) }
    mutating func golomb(_ value: UInt64, k: Int) { sink.golomb(value, k: k) }
    mutating func signedGolomb(_ value: Int64, k: Int) { sink.signedGolomb(value, k: k) }
    var bitCount: Int { sink.bitCount }

    /// Every bit written so far, the last byte padded with zeros.
    var bytes: [UInt8] {
        var finished = sink
        let count = finished.finish()
        return Array(buffer.bytes[0..<count])
    }
}
