/// An immutable byte buffer with a stable address, shared by every write that sends it.
///
/// Guarantees: the bytes never move and are freed when the last reference (every queued or in-flight write
/// holds one) goes away, so one encoded snapshot can be handed to libuv for a hundred clients at no copy.
public final class SharedBytes: @unchecked Sendable {
    public let bytes: UnsafeMutableRawBufferPointer

    public init(_ source: some Collection<UInt8>) {
        bytes = .allocate(byteCount: max(source.count, 1), alignment: 1)
        _ = UnsafeMutableRawBufferPointer(rebasing: bytes[0..<source.count]).initializeMemory(as: UInt8.self, from: source)
        count = source.count
    }

    public convenience init(string: String) { self.init(Array(string.utf8)) }

    /// Lets `fill` write straight into a fresh buffer of `capacity` bytes (no intermediate array) and keeps
    /// the number of bytes it says it wrote (at most `capacity`).
    public init(capacity: Int, fill: (UnsafeMutableRawBufferPointer) -> Int) {
        bytes = .allocate(byteCount: max(capacity, 1), alignment: 1)
        let written = fill(UnsafeMutableRawBufferPointer(rebasing: bytes[0..<capacity]))
        precondition(written >= 0 && written <= capacity, "SharedBytes: wrote \(written) of \(capacity) bytes")
        count = written
    }

    deinit { bytes.deallocate() }

    public let count: Int

    /// A copy of the bytes (the copy is made while this object is certainly alive).
    public var array: [UInt8] { [UInt8](readOnly) }

    public var readOnly: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<count]) }
}
