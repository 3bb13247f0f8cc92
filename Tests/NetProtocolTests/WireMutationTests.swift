import Testing
@testable import NetProtocol

/// A deterministic generator so failures reproduce.
private struct LCG {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

private let seedLines: [[UInt8]] = [
    ClientMessage(id: .number("1"), .tap(x: 412.25, y: 300.5, body: 3, mode: .instantaneous)).encoded(),
    ClientMessage(id: .string("d"), .drag(phase: .move, x: 233.75, y: 180.125, body: nil)).encoded(),
    ClientMessage(.push(body: 7, direction: .angle(1.5, magnitude: 2.5), mode: .continuous, active: true,
                        offset: Point(1, 2))).encoded(),
    ClientMessage(id: .number("2e1"), .set(body: 3, patch: PropertyPatch(elasticity: 0.8, color: "#ff8800"))).encoded(),
    ClientMessage(.spawn(shape: .polygon([Point(0, 0), Point(10, 0), Point(0, 10)]), width: 10, height: 10, x: 1, y: 2,
                         angle: nil, vx: nil, vy: nil, patch: PropertyPatch())).encoded(),
    ClientMessage(.ping(t: .array([.string("é"), .null]))).encoded(),
].map { Array($0.dropLast()) }

@Test(.timeLimit(.minutes(3))) func mutatedLinesDecodeToAnErrorOrToAMessageThatRoundTrips() {
    var random = LCG(state: 2024)
    let alphabet = Array("{}[]\":,-+.eE0123456789 \\utrfnal#".utf8) + [0, 0x80, 0xC3, 0xFF, 0x0A]
    var accepted = 0, rejected = 0
    for _ in 0..<20_000 {
        var line = seedLines[random.next(seedLines.count)]
        for _ in 0...random.next(3) {
            let position = random.next(line.count)
            switch random.next(3) {
            case 0: line[position] = alphabet[random.next(alphabet.count)]
            case 1: line.insert(alphabet[random.next(alphabet.count)], at: position)
            default: line.remove(at: position)
            }
            if line.isEmpty { line = [UInt8(ascii: "{")] }
        }
        switch ClientMessage.decode(line) {
        case let .success(message):
            accepted += 1
            let again = ClientMessage.decode(Array(message.encoded().dropLast()))
            #expect((try? again.get()) == message, "\(String(decoding: line, as: UTF8.self))")
        case let .failure(error):
            rejected += 1
            #expect(!error.message.isEmpty)
            #expect(![.unknownBody, .noBody, .notDragging, .lineTooLong, .rateLimited, .unauthorized, .forbidden,
                       .serverFull, .protocolMismatch].contains(error.code))
        }
    }
    #expect(accepted > 500)
    #expect(rejected > 10_000)
}

@Test(.timeLimit(.minutes(3))) func framingIsTheSameForAnySplitOfTheStream() {
    var random = LCG(state: 7)
    let stream = seedLines.flatMap { $0 + Array("\r\n\n".utf8) } + Array(repeating: UInt8(ascii: "x"), count: 300) + [0x0A]
        + seedLines[0] + [0x0A]
    func frame(_ chunks: [ArraySlice<UInt8>]) -> [String] {
        var framer = LineFramer(maxLineBytes: 200)
        var lines: [String] = []
        for chunk in chunks {
            framer.feed(Array(chunk)) { event in
                switch event {
                case let .line(bytes): lines.append(String(decoding: bytes, as: UTF8.self))
                case .tooLong: lines.append("<tooLong>")
                }
            }
        }
        return lines
    }
    let whole = frame([stream[...]])
    #expect(whole.count == seedLines.count + 2)
    #expect(whole[seedLines.count] == "<tooLong>")
    for _ in 0..<300 {
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + 1 + random.next(40))
            chunks.append(stream[start..<end])
            start = end
        }
        #expect(frame(chunks) == whole)
    }
}
