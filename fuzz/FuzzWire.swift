// libFuzzer entry for the wire codec: framing, client decoding and the answers the server would write.
//
// Compiled in one module together with Sources/NetProtocol/Wire/*.swift (no `import NetProtocol`), by
// scripts/fuzz.sh:  swiftc -sanitize=fuzzer,address -parse-as-library -O ...
//
// Invariants checked on every input (a violation is a `fatalError`, which libFuzzer reports as a crash
// and saves as a reproducer):
//  1. Framing is split-invariant: feeding the bytes in random pieces (split points drawn from the first
//     byte) yields exactly the events of one whole feed, and never buffers more than the line limit.
//  2. Every line that decodes round-trips: `decode(encoded())` equals the decoded message.
//  3. Every line that fails decodes into an `error` answer that is itself one valid server line with the
//     same code and id (the server writes it to the client verbatim).

/// The framer's line limit here: small, so that `line_too_long` paths are reached by short inputs.
private let fuzzMaxLineBytes = 512

/// One framing event, copied out of the framer's callback buffer so two runs can be compared.
private enum FramedEvent: Equatable {
    case line([UInt8])
    case tooLong
}

/// A tiny deterministic generator (xorshift) seeded from the input, so a crash reproduces exactly.
private struct SplitRandom {
    var state: UInt64
    init(seed: UInt8) { state = 0x9E37_79B9_7F4A_7C15 ^ UInt64(seed) &* 0x1000_0000_01B3 | 1 }
    mutating func next(below bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(max(1, bound)))
    }
}

private func frame(_ bytes: UnsafeRawBufferPointer, pieces: [Range<Int>]) -> [FramedEvent] {
    var framer = LineFramer(maxLineBytes: fuzzMaxLineBytes)
    var events: [FramedEvent] = []
    for piece in pieces {
        framer.feed(UnsafeRawBufferPointer(rebasing: bytes[piece])) { event in
            switch event {
            case .line(let line): events.append(.line(Array(line)))
            case .tooLong: events.append(.tooLong)
            }
        }
        if framer.bufferedByteCount > fuzzMaxLineBytes {
            fatalError("framer buffered \(framer.bufferedByteCount) bytes, limit \(fuzzMaxLineBytes)")
        }
    }
    return events
}

private func randomPieces(count: Int, seed: UInt8) -> [Range<Int>] {
    var random = SplitRandom(seed: seed)
    var pieces: [Range<Int>] = []
    var start = 0
    while start < count {
        // Mostly short pieces (1...16 bytes), sometimes long ones, to hit every boundary position.
        let length = random.next(below: 4) == 0 ? 1 + random.next(below: 1024) : 1 + random.next(below: 16)
        let end = min(count, start + length)
        pieces.append(start..<end)
        start = end
    }
    return pieces
}

private func checkRoundTrip(_ message: ClientMessage, line: [UInt8]) {
    var encoded = message.encoded()
    guard encoded.last == UInt8(ascii: "\n") else { fatalError("encoded() does not end with a newline") }
    encoded.removeLast()
    if encoded.contains(UInt8(ascii: "\n")) { fatalError("encoded() holds a newline inside the line") }
    switch ClientMessage.decode(encoded) {
    case .success(let again):
        if again != message {
            fatalError("round trip changed the message:\n in:  \(String(decoding: line, as: UTF8.self))\n out: \(String(decoding: encoded, as: UTF8.self))")
        }
    case .failure(let error):
        fatalError("encoded message does not decode (\(error.code.rawValue): \(error.message)): \(String(decoding: encoded, as: UTF8.self))")
    }
}

private func checkErrorAnswer(_ error: ProtocolError) {
    var line = ServerMessage.error(error).encoded()
    guard line.last == UInt8(ascii: "\n") else { fatalError("error answer does not end with a newline") }
    line.removeLast()
    if line.contains(UInt8(ascii: "\n")) { fatalError("error answer holds a newline inside the line") }
    guard case let .error(decoded)? = ServerMessage.decode(line) else {
        fatalError("error answer is not a valid server line: \(String(decoding: line, as: UTF8.self))")
    }
    if decoded.code != error.code || decoded.id != error.id {
        fatalError("error answer changed code or id: \(String(decoding: line, as: UTF8.self))")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let whole = frame(bytes, pieces: [0..<size])
    let split = frame(bytes, pieces: randomPieces(count: size, seed: data[0]))
    if whole != split { fatalError("framing depends on split points: \(whole.count) vs \(split.count) events") }
    for case let .line(line) in whole {
        switch ClientMessage.decode(line) {
        case .success(let message): checkRoundTrip(message, line: line)
        case .failure(let error): checkErrorAnswer(error)
        }
    }
    return 0
}
