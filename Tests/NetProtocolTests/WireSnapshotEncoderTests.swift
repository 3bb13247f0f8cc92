import Testing
@testable import NetProtocol

private func encode(_ encoder: inout SnapshotEncoder, tick: UInt64 = 1, time: Double = 0, paused: Bool = false,
                    clients: Int = 0, bodies: [BodyState], drags: [DragInfo] = []) -> String {
    let bytes = bodies.withUnsafeBufferPointer {
        encoder.encode(tick: tick, time: time, paused: paused, clients: clients, bodies: $0, drags: drags)
    }
    return String(decoding: bytes, as: UTF8.self)
}

private func rounded(_ value: Double, _ decimals: Int) -> String {
    var writer = JSONWriter()
    writer.number(value, decimals: decimals)
    return String(decoding: writer.bytes, as: UTF8.self)
}

@Test(.timeLimit(.minutes(3))) func snapshotEncoderWritesTheGoldenBytes() {
    var encoder = SnapshotEncoder()
    let line = encode(&encoder, tick: 1234, time: 20.5674, clients: 3,
                      bodies: [BodyState(id: 1, x: 412.499, y: 300.254, angle: 0.1254, vx: 10.5, vy: -3.2549, av: 0.5),
                               BodyState(id: 2, x: 800, y: -0.004, angle: -0.0004, vx: .nan, vy: .infinity, av: -1.0005)],
                      drags: [DragInfo(client: 7, name: "a\"b", body: 1, x: 400, y: 280.006, offset: Point(-5.5, 0.25))])
    #expect(line == #"{"type":"snapshot","tick":1234,"time":20.567,"paused":false,"clients":3,"bodies":[{"id":1,"x":412.5,"y":300.25,"angle":0.125,"vx":10.5,"vy":-3.25,"av":0.5},{"id":2,"x":800,"y":0,"angle":0,"vx":0,"vy":0,"av":-1.001}],"drags":[{"client":7,"name":"a\"b","body":1,"x":400,"y":280.01,"offset":{"x":-5.5,"y":0.25}}]}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func snapshotEncoderWritesPausedAndEmptyLists() {
    var encoder = SnapshotEncoder()
    #expect(encode(&encoder, tick: 0, time: 3, paused: true, bodies: [])
        == #"{"type":"snapshot","tick":0,"time":3,"paused":true,"clients":0,"bodies":[],"drags":[]}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func snapshotEncoderReusesItsBufferAcrossCallsWithoutMixingOutput() {
    var encoder = SnapshotEncoder()
    let many = (1...500).map { BodyState(id: $0, x: Double($0) * 1.5, y: 2, angle: 0) }
    let first = encode(&encoder, bodies: many)
    let second = encode(&encoder, tick: 2, bodies: [BodyState(id: 9, x: 1, y: 2, angle: 3)])
    #expect(first.count > 10_000)
    #expect(second == #"{"type":"snapshot","tick":2,"time":0,"paused":false,"clients":0,"bodies":[{"id":9,"x":1,"y":2,"angle":3,"vx":0,"vy":0,"av":0}],"drags":[]}"# + "\n")
}

@Test(.timeLimit(.minutes(3))) func snapshotOutputDecodesBackToTheRoundedValues() throws {
    var encoder = SnapshotEncoder()
    let bodies = (1...1000).map { (index: Int) -> BodyState in
        let value = Double(index)
        return BodyState(id: index, x: value * 0.7771, y: -value / 3, angle: value * 0.01234,
                         vx: value / 1000, vy: 123_456.789, av: -0.0005)
    }
    let line = encode(&encoder, tick: 77, time: 1.23456, clients: 100, bodies: bodies)
    guard case let .snapshot(snapshot)? = ServerMessage.decode(line) else {
        Issue.record("snapshot did not decode")
        return
    }
    #expect(snapshot.bodies.count == 1000)
    #expect(snapshot.time == 1.235)
    #expect(snapshot.clients == 100)
    #expect(snapshot.bodies[999] == BodyState(id: 1000, x: 777.1, y: -333.33, angle: 12.34, vx: 1, vy: 123_456.79, av: -0.001))
    #expect(snapshot.bodies[2] == BodyState(id: 3, x: 2.33, y: -1, angle: 0.037, vx: 0, vy: 123_456.79, av: -0.001))
}

@Test(.timeLimit(.minutes(3))) func roundedNumbersTrimZerosAndNeverWriteNegativeZero() {
    #expect(rounded(800, 2) == "800")
    #expect(rounded(0.5, 2) == "0.5")
    #expect(rounded(0.05, 2) == "0.05")
    #expect(rounded(0.001, 3) == "0.001")
    #expect(rounded(-0.004, 2) == "0")
    #expect(rounded(-0.0, 3) == "0")
    #expect(rounded(-12.345678, 3) == "-12.346")
    #expect(rounded(1_234_567.891, 2) == "1234567.89")
    #expect(rounded(.nan, 2) == "0")
    #expect(rounded(-.infinity, 3) == "0")
    #expect(rounded(1e20, 2) == "1e+20")
    #expect(rounded(2.5, 0) == "3")
}

@Test(.timeLimit(.minutes(3))) func writerEscapesStringsAndFormatsShortestNumbers() {
    var writer = JSONWriter()
    writer.beginArray()
    writer.string("q\"b\\s\n\t\u{01}\u{7F}é😀")
    writer.number(0.1)
    writer.number(-0.0)
    writer.number(1e-7)
    writer.number(123_456_789_012)
    writer.number(.nan)
    writer.int(-42)
    writer.uint(UInt64.max)
    writer.bool(true)
    writer.null()
    writer.beginObject()
    writer.key("k\"")
    writer.number(1.5)
    writer.endObject()
    writer.endArray()
    #expect(String(decoding: writer.bytes, as: UTF8.self)
        == #"["q\"b\\s\n\t\u0001"# + "\u{7F}é😀" + #"",0.1,0,1e-07,123456789012,0,-42,18446744073709551615,true,null,{"k\"":1.5}]"#)
    #expect((try? JSONParser.parse(writer.bytes))?.array?.count == 11)
}

@Test(.timeLimit(.minutes(3))) func everyNonFiniteValueAnEncoderWritesAsZeroIsCounted() {
    // Other tests in this process may write non-finite values at the same time, so the count is checked to
    // grow by at least what this test wrote; a finite-only snapshot is checked in the server's tests (0 there).
    var encoder = SnapshotEncoder()
    let before = NonFiniteValues.total
    let line = encode(&encoder, bodies: [BodyState(id: 1, x: .nan, y: 2, angle: .infinity, vx: -.infinity, vy: 0, av: 0)])
    #expect(line.contains(#""x":0,"y":2,"angle":0,"vx":0"#))
    #expect(NonFiniteValues.total >= before + 3, "three non-finite values written as 0 are three counted")
    var writer = JSONWriter()
    writer.number(.nan)
    #expect(NonFiniteValues.total >= before + 4)
    #expect(PoseTable.centi(.infinity) == 0 && NonFiniteValues.total >= before + 5)
}
