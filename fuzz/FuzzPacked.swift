// libFuzzer entry for the packed frame decoder (docs/PROTOCOL.md, "packed"): a hostile frame never crashes a
// client.
//
// Compiled in one module together with Sources/NetProtocol/Wire/*.swift (no `import NetProtocol`), by
// scripts/fuzz.sh:  swiftc -sanitize=fuzzer,address -parse-as-library -O ...
//
// Invariants checked on every input (a violation is a `fatalError`, which libFuzzer reports as a crash and
// saves as a reproducer):
//  1. Applying the bytes — with no baseline, or after a keyframe and a delta so that deltas and predictions
//     are reached (the first byte picks which) — returns or throws, and a throw leaves the baseline as it was.
//  2. Whatever decodes re-encodes: the encoder, given the decoded table and the same baseline, writes a frame
//     that the same starting state decodes to exactly that table.
//  3. The input as a TCP line's base64 decodes to the same bytes.

/// A small world the deltas are relative to: a keyframe, then a delta (so there is a previous table).
private let keyframe = PackedTable(tick: 100, timeMs: 1667, ids: [1, 2, 5, 9],
                                   x: [1600, -32, 12_800, 0], y: [800, 8, -4, 16], angle: [0, 65_536, -9, 3])
private let moved = PackedTable(tick: 102, timeMs: 1700, ids: [1, 2, 5, 9],
                                x: [1608, -32, 12_790, 0], y: [800, 24, -4, 16], angle: [0, 65_530, -9, 3])

private func same(_ a: PackedTable?, _ b: PackedTable?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.tick == b.tick && a.timeMs == b.timeMs && a.ids == b.ids && a.x == b.x && a.y == b.y && a.angle == b.angle
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPacked(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    var start = PackedApplier()
    var previous: PackedTable?
    if let first = input.first, first & 1 == 1 {
        let flags = (paused: first & 2 != 0, held: first & 4 != 0)
        _ = try? start.apply(PackedEncoder.encode(keyframe, base: nil, previous: nil, paused: flags.paused,
                                                  held: flags.held, clients: 1, drags: []))
        _ = try? start.apply(PackedEncoder.encode(moved, base: keyframe, previous: nil, paused: false, held: false,
                                                  clients: 1, drags: []))
        guard same(start.base, moved) else { fatalError("the fixed frames did not decode to their tables") }
        previous = keyframe
    }
    let frame = Array(input.dropFirst())
    var applier = start
    do {
        let snapshot = try applier.apply(frame)
        guard let table = applier.base else { fatalError("a frame decoded without leaving a baseline") }
        let again = PackedEncoder.encode(table, base: start.base, previous: previous, paused: snapshot.paused,
                                         held: snapshot.held, clients: snapshot.clients, drags: snapshot.drags)
        var check = start
        guard let decoded = try? check.apply(again), same(check.base, table), decoded.drags == snapshot.drags else {
            fatalError("a decoded frame did not survive re-encoding")
        }
    } catch {
        guard same(applier.base, start.base) else { fatalError("a refused frame changed the baseline") }
    }
    let text = String(decoding: PackedLine.base64(frame), as: UTF8.self)
    guard PackedLine.decodeData(text) == frame else { fatalError("base64 did not round-trip") }
    return 0
}
