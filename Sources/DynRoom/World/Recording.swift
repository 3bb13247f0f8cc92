import Dynamics
import NetProtocol

/// A recording read back (docs/PROTOCOL.md, "Recordings"): the header and the entries in file order.
///
/// Guarantees: `load` either returns every line of the file checked (the header first, then command and
/// hash lines, each command a valid protocol command) or throws a `ReplayError`
/// naming the line that is wrong; the header's `state` is handed on as the exact bytes of a state document.
/// A last line cut short (no newline after it and not whole JSON: the recorder died mid-write) is left
/// out and named in `cut`, so the recording replays up to the cut instead of failing whole.
package struct Recording {
    package struct Header {
        package var room: String
        package var tickHz: Double
        package var width: Double
        package var height: Double
        package var maxBodies: Int
        /// The room's whole state at the start, as a `--state` document.
        package var state: [UInt8]
        /// The state hash of the room when it started recording (checked before the first entry).
        package var hash: String?
    }

    package enum Entry {
        case command(tick: UInt64, client: Int, name: String, command: ClientCommand)
        case hash(tick: UInt64, hash: String)

        package var tick: UInt64 {
            switch self {
            case .command(let tick, _, _, _), .hash(let tick, _): return tick
            }
        }
    }

    package var header: Header
    package var entries: [Entry]
    /// Where a partial last line was left out (`FILE:LINE`), or nil when the file ends with a whole line.
    package var cut: String? = nil

    package static func load(path: String) throws(ReplayError) -> Recording {
        let read: [UInt8]?
        do { read = try StateFile(path: path).load() } catch { throw ReplayError("\(path): cannot read: \(error)") }
        guard let bytes = read else { throw ReplayError("\(path): no such file") }
        return try parse(bytes, path: path)
    }

    package static func parse(_ bytes: [UInt8], path: String) throws(ReplayError) -> Recording {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let first = lines.first else { throw ReplayError("\(path): empty, not a recording") }
        let header = try parseHeader(Array(first), path: path)
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count)
        // Ticks only grow, but for a `restore`, which takes the room's clock back.
        let endsWithNewline = bytes.last == UInt8(ascii: "\n")
        for (index, line) in lines.dropFirst().enumerated() {
            do {
                entries.append(try parseEntry(Array(line), place: "\(path):\(index + 2)"))
            } catch {
                // Only a line that is not even whole JSON was cut; a whole line that is wrong stays an error.
                guard !endsWithNewline, index == lines.count - 2, (try? JSONParser.parse(Array(line), maxDepth: 40)) == nil
                else { throw error }
                return Recording(header: header, entries: entries, cut: "\(path):\(index + 2)")
            }
        }
        return Recording(header: header, entries: entries)
    }

    private static func parseHeader(_ line: [UInt8], path: String) throws(ReplayError) -> Header {
        let value: JSONValue
        do { value = try JSONParser.parse(line, maxDepth: 64) } catch { throw ReplayError("\(path):1: not JSON: \(error.message)") }
        guard value["type"]?.string == "recording" else { throw ReplayError("\(path):1: not a recording header (type \"recording\")") }
        guard value["version"]?.number == 1 else { throw ReplayError("\(path):1: recording version \(value["version"]?.number.map { String($0) } ?? "?"), this build reads 1") }
        guard let room = value["room"]?.string, let tickHz = value["tick_hz"]?.number, tickHz >= 1, tickHz <= 1000,
              let world = value["world"], let width = world["width"]?.number, let height = world["height"]?.number,
              width > 0, height > 0, let state = value["state"], case .object = state
        else { throw ReplayError("\(path):1: the header needs room, tick_hz, world {width, height} and state") }
        let maxBodies = world["max_bodies"]?.number.map { Int($0) } ?? 5000
        var w = JSONWriter(capacity: line.count)
        w.value(state)
        w.newline()
        return Header(room: room, tickHz: tickHz, width: width, height: height, maxBodies: max(1, maxBodies), state: w.bytes,
                      hash: value["hash"]?.string)
    }

    private static func parseEntry(_ line: [UInt8], place: String) throws(ReplayError) -> Entry {
        let value: JSONValue
        do { value = try JSONParser.parse(line, maxDepth: 40) } catch { throw ReplayError("\(place): not JSON: \(error.message)") }
        guard let tickNumber = value["tick"]?.number, tickNumber >= 0, tickNumber <= 9e15, tickNumber == tickNumber.rounded() else {
            throw ReplayError("\(place): needs a whole non-negative tick")
        }
        let tick = UInt64(tickNumber)
        if let hash = value["hash"]?.string { return .hash(tick: tick, hash: hash) }
        guard let raw = value["command"], case .object = raw, let client = value["client"]?.number else {
            throw ReplayError("\(place): a line is a command (tick, client, name, command) or a hash (tick, hash)")
        }
        var w = JSONWriter(capacity: line.count)
        w.value(raw)
        switch ClientMessage.decode(w.bytes) {
        case .success(let message):
            return .command(tick: tick, client: Int(client), name: value["name"]?.string ?? "client \(Int(client))",
                            command: message.command)
        case .failure(let error):
            throw ReplayError("\(place): not a valid command: \(error.message)")
        }
    }
}

package struct ReplayError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
