import Dynamics
import NetProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A room's recording, `--record DIR` (docs/PROTOCOL.md, "Recordings"): `DIR/ROOM.ndjson`, one JSON object a
/// line — the header with the room's whole state, then every command that changed the room at its tick, and
/// the state hash whenever the tick passes a multiple of `--hash-every`.
///
/// Guarantees: each line is written with one `write(2)` as it happens (a crash loses nothing already
/// written, and lines are in the order things happened in the room); a failed write is logged once and the
/// recording stops, never the room. The room owns it; `append` runs wherever the room runs (the loop thread,
/// or a worker during the room's step, never both at once), and touches no libuv handle.
package final class Recorder {
    package let path: String
    private var fd: Int32
    private let hashEvery: UInt64
    /// The tick of the last hash line (the next is due once `tick / hashEvery` passes it).
    private var lastHashedTick: UInt64
    package private(set) var failure: String?
    /// Bytes written so far (for `--record-max-mb`).
    package private(set) var bytesWritten = 0

    package init(path: String, hashEvery: UInt64, startTick: UInt64) throws(RecorderError) {
        self.path = path
        self.hashEvery = max(1, hashEvery)
        lastHashedTick = startTick
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RecorderError("cannot open \(path): \(String(cString: strerror(errno)))") }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// `{"type":"recording","version":1,"room":…,"build":"dynserver 0.1.0","tick_hz":…,"world":{…},"hash":…,"state":{…}}`.
    package func writeHeader(room: String, tickHz: Double, config: RoomConfig, state: [UInt8], hash: UInt64) {
        var w = JSONWriter(capacity: state.count + 256)
        w.beginObject()
        w.key("type"); w.string("recording")
        w.key("version"); w.int(1)
        w.key("room"); w.string(room)
        // The build that wrote it: a replay is exact only with the same build.
        w.key("build"); w.string("dynserver \(DynVersion.current)")
        w.key("tick_hz"); w.number(tickHz)
        w.key("world"); w.beginObject()
        w.key("width"); w.number(config.worldWidth)
        w.key("height"); w.number(config.worldHeight)
        w.key("max_bodies"); w.int(config.maxBodies)
        w.endObject()
        w.key("hash"); w.string(StateHasher.hex(hash))
        w.key("state")
        // The state document is one JSON object ending in a newline; it goes in as it is, without the newline,
        // and closes the header.
        w.append(raw: state.last == UInt8(ascii: "\n") ? state.dropLast() : state[...])
        w.endObject()
        w.newline()
        append(w.bytes)
    }

    /// `{"tick":T,"client":C,"name":"alice","command":{…}}`.
    package func recordCommand(_ command: ClientCommand, tick: UInt64, client: Int, name: String) {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("tick"); w.uint(tick)
        w.key("client"); w.int(client)
        w.key("name"); w.string(name)
        w.key("command")
        let line = ClientMessage(command).encoded()
        w.append(raw: line.dropLast())
        w.endObject()
        w.newline()
        append(w.bytes)
    }

    /// True when `tick` passed a multiple of `--hash-every` since the last hash line.
    package func hashDue(tick: UInt64) -> Bool {
        tick / hashEvery > lastHashedTick / hashEvery
    }

    /// After a `restore` took the room's clock back to `tick`: hash lines are due from there again.
    package func rewind(to tick: UInt64) {
        lastHashedTick = tick
    }

    /// `{"tick":T,"hash":"…"}`.
    package func recordHash(_ hash: UInt64, tick: UInt64) {
        lastHashedTick = tick
        var w = JSONWriter(capacity: 64)
        w.beginObject()
        w.key("tick"); w.uint(tick)
        w.key("hash"); w.string(StateHasher.hex(hash))
        w.endObject()
        w.newline()
        append(w.bytes)
    }

    private func append(_ bytes: [UInt8]) {
        guard fd >= 0 else { return }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                failure = "cannot write \(path): \(String(cString: strerror(errno)))"
                close(fd)
                fd = -1
                return
            }
            done += n
        }
        bytesWritten += bytes.count
    }
}

package struct RecorderError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
