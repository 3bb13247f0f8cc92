#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into `\n`-terminated lines. Pure: no I/O, no clock.
///
/// Guarantees: lines may arrive split across any number of `feed` calls or many per call; a `\r` just before
/// the `\n` is stripped; empty lines are never emitted; a line longer than `maxLineBytes` (counted before the
/// `\n`, a trailing `\r` included) produces exactly one `.tooLong` as soon as the limit is exceeded, and the
/// rest of it up to its `\n` is discarded without being stored. `bufferedByteCount` never exceeds
/// `maxLineBytes`. Complete lines inside one `feed` are passed straight from the caller's buffer (no copy).
public struct LineFramer {
    /// One framing result. A `.line` buffer is valid only during the callback.
    public enum Event {
        case line(UnsafeRawBufferPointer)
        case tooLong
    }

    public let maxLineBytes: Int
    private var pending: [UInt8] = []
    private var discarding = false

    public init(maxLineBytes: Int = 65536) {
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// Bytes of an incomplete line held until its `\n` arrives.
    public var bufferedByteCount: Int { pending.count }

    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ onEvent: (Event) -> Void) {
        guard let base = bytes.baseAddress else { return }
        var position = 0
        while position < bytes.count {
            let remaining = bytes.count - position
            guard let newline = memchr(base + position, 0x0A, remaining) else {
                holdPartial(UnsafeRawBufferPointer(start: base + position, count: remaining), onEvent)
                return
            }
            let lineEnd = UnsafeRawPointer(newline) - base
            completeLine(UnsafeRawBufferPointer(start: base + position, count: lineEnd - position), onEvent)
            position = lineEnd + 1
        }
    }

    /// Feeds a byte array (convenience for tests and tools).
    public mutating func feed(_ bytes: [UInt8], _ onEvent: (Event) -> Void) {
        bytes.withUnsafeBytes { feed($0, onEvent) }
    }

    /// Handles the bytes before a `\n`: the end of a pending or discarded line, or a whole line.
    private mutating func completeLine(_ tail: UnsafeRawBufferPointer, _ onEvent: (Event) -> Void) {
        if discarding {
            discarding = false
            return
        }
        if pending.isEmpty {
            if tail.count > maxLineBytes { onEvent(.tooLong) } else { emit(tail, onEvent) }
            return
        }
        if pending.count + tail.count > maxLineBytes {
            onEvent(.tooLong)
        } else {
            pending.append(contentsOf: tail)
            pending.withUnsafeBytes { emit($0, onEvent) }
        }
        releasePending()
    }

    /// Stores the start of a line whose `\n` has not arrived yet, or starts discarding it when too long.
    private mutating func holdPartial(_ partial: UnsafeRawBufferPointer, _ onEvent: (Event) -> Void) {
        if discarding { return }
        if pending.count + partial.count > maxLineBytes {
            onEvent(.tooLong)
            discarding = true
            releasePending()
        } else {
            pending.append(contentsOf: partial)
        }
    }

    private func emit(_ line: UnsafeRawBufferPointer, _ onEvent: (Event) -> Void) {
        var length = line.count
        if length > 0, line[length - 1] == UInt8(ascii: "\r") { length -= 1 }
        guard length > 0, let start = line.baseAddress else { return }
        onEvent(.line(UnsafeRawBufferPointer(start: start, count: length)))
    }

    /// Empties the pending buffer; a buffer grown by a long line is freed so idle connections stay small.
    private mutating func releasePending() {
        if pending.capacity > 16 * 1024 { pending = [] } else { pending.removeAll(keepingCapacity: true) }
    }
}
