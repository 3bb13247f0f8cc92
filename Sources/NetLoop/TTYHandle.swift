import CLibUV

/// A terminal file descriptor as a libuv stream (the client's keyboard/mouse input and screen output).
///
/// Guarantees: `setMode` switches between normal and raw mode through libuv, and `TTYHandle.resetMode()`
/// restores the mode libuv saved first — safe to call from any exit path, any number of times.
public final class TTYHandle: StreamHandle {
    public init(loop: EventLoop, fd: Int32, readable: Bool) throws(UVError) {
        super.init(loop: loop, type: UV_TTY)
        try uvCheck(uv_tty_init(loop.raw, tty, fd, readable ? 1 : 0), "uv_tty_init(\(fd))")
        adopt()
    }

    private var tty: UnsafeMutablePointer<uv_tty_t> { memory.assumingMemoryBound(to: uv_tty_t.self) }

    public enum Mode: Sendable { case normal, raw }

    public func setMode(_ mode: Mode) throws(UVError) {
        try checkOpen("uv_tty_set_mode")
        try uvCheck(uv_tty_set_mode(tty, mode == .raw ? UV_TTY_MODE_RAW : UV_TTY_MODE_NORMAL), "uv_tty_set_mode")
    }

    /// The terminal's size in cells.
    public func windowSize() throws(UVError) -> (columns: Int, rows: Int) {
        try checkOpen("uv_tty_get_winsize")
        var width: Int32 = 0
        var height: Int32 = 0
        try uvCheck(uv_tty_get_winsize(tty, &width, &height), "uv_tty_get_winsize")
        return (Int(width), Int(height))
    }

    /// Restores the terminal mode saved by the first `setMode(.raw)`; async-signal-safe in libuv.
    @discardableResult
    public static func resetMode() -> Int32 { uv_tty_reset_mode() }
}

/// True when `fd` is a terminal.
public func isTerminal(_ fd: Int32) -> Bool { uv_guess_handle(fd) == UV_TTY }
