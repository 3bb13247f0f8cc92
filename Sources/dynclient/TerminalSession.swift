#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NetProtocol
import NetLoop

/// Owns the terminal's modes for the interactive client: raw input, alternate screen, hidden cursor, mouse.
///
/// Guarantees: `enter()` saves the terminal settings (libuv keeps the original termios), switches to raw mode,
/// then writes `TerminalModes.enter`; `leave()` undoes that in reverse order (`TerminalModes.leave`, then the
/// saved termios) and is safe to call any number of times, also when `enter()` never ran. The process-wide
/// hooks installed by `installExitHooks()` restore the terminal the same way on `exit()` (atexit) and on a
/// crash signal (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, where only async-signal-safe calls are
/// made) before the handler that was there before (Swift's backtracer or the default action) runs.
final class TerminalSession {
    private let input: TTYHandle
    private(set) var isActive = false

    init(input: TTYHandle) { self.input = input }

    func enter() throws(UVError) {
        guard !isActive else { return }
        try input.setMode(.raw)
        isActive = true
        TerminalRestore.active = 1
        FDWriter.writeAll(1, TerminalModes.enter)
    }

    func leave() {
        guard isActive else { return }
        isActive = false
        TerminalRestore.active = 0
        FDWriter.writeAll(1, TerminalModes.leave)
        // setMode(.normal) rather than resetMode(): libuv remembers the mode it set, and only a real
        // switch back to normal lets a later setMode(.raw) (after SIGCONT) take effect again.
        if (try? input.setMode(.normal)) == nil { TTYHandle.resetMode() }
    }

    static func installExitHooks() { TerminalRestore.install() }
}

/// Process-wide restore used by `atexit` and crash-signal handlers, which cannot capture Swift objects.
enum TerminalRestore {
    /// 1 while the terminal is in the client's modes. Written on the loop thread, read by handlers.
    nonisolated(unsafe) static var active: sig_atomic_t = 0
    /// `TerminalModes.leave` in memory that never moves or gets freed, so a signal handler can write it.
    nonisolated(unsafe) static var leaveBytes: UnsafeMutableRawBufferPointer?
    nonisolated(unsafe) static var installed = false
    /// The actions that were in place before ours, indexed by signal number.
    nonisolated(unsafe) static var previousActions: UnsafeMutablePointer<sigaction>?

    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    static func install() {
        guard !installed else { return }
        installed = true
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: TerminalModes.leave.count, alignment: 1)
        bytes.copyBytes(from: TerminalModes.leave)
        leaveBytes = bytes
        atexit { TerminalRestore.restoreNow() }
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(crashSignals.max()!) + 1)
        previous.initialize(repeating: sigaction(), count: Int(crashSignals.max()!) + 1)
        previousActions = previous
        for signal in crashSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                TerminalRestore.restoreNow()
                // Put back whoever handled the signal before (the Swift runtime's backtracer, or the
                // default action) and return: the faulting instruction runs again and reaches it.
                if let previous = TerminalRestore.previousActions { sigaction(signal, previous + Int(signal), nil) }
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previous + Int(signal))
        }
    }

    /// Async-signal-safe: one `write(2)` of prepared bytes and libuv's `uv_tty_reset_mode` (documented safe).
    static func restoreNow() {
        guard active == 1 else { return }
        active = 0
        if let leaveBytes { _ = write(1, leaveBytes.baseAddress, leaveBytes.count) }
        TTYHandle.resetMode()
    }
}
