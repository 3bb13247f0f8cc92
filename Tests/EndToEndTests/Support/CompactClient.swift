import Foundation
import NetProtocol
import Testing

/// Reading compact frames in end-to-end tests: each frame is applied with the public `FrameApplier`, the
/// way a client does, and kept as the full state it describes.
extension LineClient {
    /// Sends `subscribe` with the given fields (raw JSON members) and returns the ack's fields.
    func subscribe(_ members: String, id: Int = 9001) throws -> [(String, JSONValue)]? {
        try ack(#"{"type":"subscribe","id":\#(id),\#(members)}"#, id: id)
    }
}

/// The states a compact client rebuilt, by tick, and what it saw on the way.
struct CompactStream {
    var applier = FrameApplier()
    var states: [UInt64: Snapshot] = [:]
    var ticks: [UInt64] = []
    var frames: [Frame] = []
    var failures: [String] = []
    /// Frames that were the first after a `scene` and were keyframes / were not.
    var keyframesAfterScene = 0
    var deltasAfterScene = 0
    var scenes = 0
    private var sceneSeen = false

    /// Handles one message of the stream; anything but `scene` and `frame` is ignored.
    mutating func take(_ message: ServerMessage) {
        switch message {
        case .scene:
            scenes += 1
            sceneSeen = true
        case let .frame(frame):
            if sceneSeen {
                if frame.isKeyframe { keyframesAfterScene += 1 } else { deltasAfterScene += 1 }
                sceneSeen = false
            }
            frames.append(frame)
            do {
                let state = try applier.apply(frame)
                states[frame.tick] = state
                ticks.append(frame.tick)
            } catch {
                failures.append("tick \(frame.tick) base \(frame.base.map(String.init) ?? "null"): \(error)")
            }
        case .snapshot:
            failures.append("a compact client got a full snapshot")
        default:
            break
        }
    }
}

/// Two clients read side by side: a full one and a compact one, alternately, so neither falls behind.
struct SideBySide {
    var full: [UInt64: Snapshot] = [:]
    var compact = CompactStream()

    mutating func read(full a: LineClient, compact b: LineClient, seconds: Double, until: ((SideBySide) -> Bool)? = nil) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let message = a.next(timeout: 0.01), case let .snapshot(snapshot) = message { full[snapshot.tick] = snapshot }
            if let message = b.next(timeout: 0.01) { compact.take(message) }
            if let until, until(self) { return }
        }
    }

    /// Ticks both clients got, and those where their positions and angles differ.
    func comparison() -> (common: [UInt64], differing: [UInt64]) {
        let common = Set(full.keys).intersection(compact.states.keys).sorted()
        let differing = common.filter { tick in
            guard let a = full[tick], let b = compact.states[tick] else { return true }
            return SideBySide.poses(a) != SideBySide.poses(b)
        }
        return (common, differing)
    }

    static func poses(_ snapshot: Snapshot) -> [[Double]] {
        snapshot.bodies.map { [Double($0.id), $0.x, $0.y, $0.angle] }
    }
}
