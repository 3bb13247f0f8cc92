// libFuzzer entry for the WebSocket frame path: a server `WebSocketEndpoint` (wslay) fed a client's bytes
// (Sources/NetProtocol/WebSocket/*.swift).
//
// Compiled in one module with those sources (no `import NetProtocol`) by scripts/fuzz.sh, against the
// system's libwslay and nettle.
//
// Invariants checked on every input (a violation is a `fatalError`, which libFuzzer saves as a reproducer):
//  1. Split invariance: fed whole or in random pieces, the server reports the same messages, writes the
//     same bytes (pongs, Close) and ends in the same state (reading or not, the Close status sent).
//  2. Every Close the server sends for a violation carries a status (docs/PROTOCOL.md): once it stops
//     reading because of the input, `statusCodeSent` is not 0, and it is 1005 only as the echo of a Close
//     that had none.
//  3. What the server writes is valid RFC 6455 for a client: a client endpoint reading it reaches the
//     server's Close with the status the server says it sent, or stays open when there is none.
//  4. Nothing is written after the Close frame.
import CWslay

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

private struct Run: Equatable {
    var messages: [String] = []
    var output: [UInt8] = []
    var wantsRead = true
    var statusSent: UInt16 = 0
    var closeReceived = false
}

private func run(_ bytes: UnsafeRawBufferPointer, pieces: [Range<Int>]) -> Run {
    let server = WebSocketEndpoint(role: .server, maxMessageBytes: 300)
    var result = Run()
    for piece in pieces {
        let closedBefore = server.closeSent
        for message in server.receive(UnsafeRawBufferPointer(rebasing: bytes[piece])) {
            if case .close = message { result.closeReceived = true }
            result.messages.append("\(message)")
        }
        let out = server.takeOutput()
        if closedBefore, !out.isEmpty { fatalError("\(out.count) bytes written after the Close frame") }
        result.output += out
    }
    result.wantsRead = server.wantsRead
    result.statusSent = server.statusCodeSent
    return result
}

private func randomPieces(count: Int, seed: UInt8) -> [Range<Int>] {
    var random = SplitRandom(seed: seed)
    var pieces: [Range<Int>] = []
    var start = 0
    while start < count {
        let length = random.next(below: 4) == 0 ? 1 + random.next(below: 512) : 1 + random.next(below: 16)
        pieces.append(start..<min(count, start + length))
        start = min(count, start + length)
    }
    return pieces
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let whole = run(bytes, pieces: [0..<size])
    let split = run(bytes, pieces: randomPieces(count: size, seed: data[0]))
    if whole != split { fatalError("the server's behaviour depends on the split points:\n whole: \(whole)\n split: \(split)") }
    if !whole.wantsRead {
        if whole.statusSent == 0 { fatalError("stopped reading without a Close frame") }
        if whole.statusSent == 1005, !whole.closeReceived { fatalError("a Close without a status for a violation") }
    }
    // A client reads everything the server wrote: it must reach the server's Close (and see its status)
    // when there is one, and stay open otherwise — a frame it rejected would stop it before.
    let client = WebSocketEndpoint(role: .client, maxMessageBytes: 1 << 20)
    let seen = whole.output.withUnsafeBytes { client.receive($0) }
    let closeSeen = seen.compactMap { if case .close(let code) = $0 { code } else { nil } }.first
    if whole.statusSent != 0 {
        if closeSeen != whole.statusSent {
            fatalError("the client saw Close \(String(describing: closeSeen)), the server sent \(whole.statusSent): \(whole.output.prefix(64))")
        }
    } else if !client.wantsRead {
        fatalError("the server wrote frames a client rejects (\(client.statusCodeSent)): \(whole.output.prefix(64))")
    }
    return 0
}
