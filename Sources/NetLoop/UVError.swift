import CLibUV

/// The one error type for every failing libuv call.
///
/// Guarantees: `name` is libuv's symbolic name (`uv_err_name`, e.g. `EADDRINUSE`), `code` the negative errno
/// libuv returned, and `operation` the call that failed, so a log line says what broke and where.
public struct UVError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32
    public let name: String
    public let message: String
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        self.name = String(cString: uv_err_name(code))
        self.message = String(cString: uv_strerror(code))
    }

    public var description: String { "\(operation): \(name) (\(message))" }

    /// The error of an operation attempted on a handle that is closing or closed.
    public static func closedHandle(_ operation: String) -> UVError {
        UVError(code: UV_EBADF.rawValue, operation: "\(operation) on a closed handle")
    }

    /// True for the status libuv reports at end of stream.
    public var isEOF: Bool { code == Int32(UV_EOF.rawValue) }
}

/// Turns a libuv return code into a thrown `UVError` when it is negative.
@inline(__always)
func uvCheck(_ rc: Int32, _ operation: @autoclosure () -> String) throws(UVError) {
    if rc < 0 { throw UVError(code: rc, operation: operation()) }
}
