import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the real `dynclient` binary headless: a stdin script in, stdout lines and stderr text out.
///
/// Guarantees: the call returns once the client exited, or kills it after `timeout` seconds (then
/// `exitCode` is nil); stdout is read while the client runs, so a chatty client never blocks on a full pipe.
struct HeadlessRun {
    let exitCode: Int32?
    let stdoutLines: [String]
    let stderr: String

    static func run(_ arguments: [String], stdin script: String, timeout: Double = 20) throws -> HeadlessRun {
        let path = ServerProcess.dynclientPath
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw EndToEndError("no dynclient binary at \(path): run `swift build --build-tests` (or set DYNCLIENT_BIN)")
        }
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let errorURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("dynclient-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorURL) }
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        defer { try? errorHandle.close() }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errorHandle
        try ChildProcess.launch(process)
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let killed = process.terminationReason == .uncaughtSignal
        let text = String(decoding: data, as: UTF8.self)
        return HeadlessRun(exitCode: killed ? nil : process.terminationStatus,
                           stdoutLines: text.split(separator: "\n").map(String.init),
                           stderr: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }
}

/// The real `dynclient` running interactively on a pseudo-terminal, as a person would run it.
///
/// Guarantees: the client's stdin, stdout and stderr are the terminal side of a fresh pty sized
/// `columns` x `rows`; everything it writes is collected in `output`; `type` sends bytes as if typed;
/// the process is killed and reaped and the pty closed when this object goes away.
final class PseudoTerminalClient {
    let process = Process()
    private let master: Int32
    /// Our own handle on the terminal side, held open so the master never reports EIO: Linux may drop
    /// what the client wrote last (the leave-modes bytes) once the last terminal-side handle closes.
    private let terminal: FileHandle
    private(set) var output: [UInt8] = []
    /// The screen as a person would see it, kept up to date with everything read.
    let screen: ClientScreen

    init(arguments: [String], columns: Int, rows: Int, environment extra: [String: String] = [:]) throws {
        screen = ClientScreen(columns: columns, rows: rows)
        let pty = try PseudoTerminalCalls()
        master = pty.openMaster(O_RDWR | O_NOCTTY)
        guard master >= 0, pty.grant(master) == 0, pty.unlock(master) == 0 else {
            throw EndToEndError("cannot open a pseudo-terminal: errno \(errno)")
        }
        var name = [CChar](repeating: 0, count: 128)
        guard pty.name(master, &name, name.count) == 0 else { throw EndToEndError("ptsname_r failed: errno \(errno)") }
        let terminalPath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let terminal = FileHandle(forUpdatingAtPath: terminalPath) else {
            throw EndToEndError("cannot open \(terminalPath)")
        }
        self.terminal = terminal
        // stty sets the size with TIOCSWINSZ (ioctl is variadic, so Swift cannot call it directly).
        let stty = Process()
        stty.executableURL = URL(fileURLWithPath: "/bin/stty")
        stty.arguments = ["rows", String(rows), "cols", String(columns)]
        stty.standardInput = terminal
        try ChildProcess.launch(stty)
        stty.waitUntilExit()
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm-256color"
        environment["COLORTERM"] = "truecolor"
        environment["NO_COLOR"] = nil
        environment.merge(extra) { _, new in new }
        process.executableURL = URL(fileURLWithPath: ServerProcess.dynclientPath)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try ChildProcess.launch(process)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? terminal.close()
        Glibc.close(master)
    }

    /// Resizes the terminal and tells the client, as a terminal window does (TIOCSWINSZ, then SIGWINCH).
    func resize(columns: Int, rows: Int) throws {
        let stty = Process()
        stty.executableURL = URL(fileURLWithPath: "/bin/stty")
        stty.arguments = ["rows", String(rows), "cols", String(columns)]
        stty.standardInput = terminal
        try ChildProcess.launch(stty)
        stty.waitUntilExit()
        kill(process.processIdentifier, SIGWINCH)
    }

    /// Bytes as if typed on the keyboard (or reported by the terminal, for mouse events).
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
    }

    /// Reads until `predicate` holds for everything read so far; false after `timeout` seconds.
    @discardableResult
    func read(timeout: Double = 10, until predicate: ([UInt8]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !predicate(output) {
            guard Date() < deadline else { return false }
            pump(waitMs: 50)
        }
        return true
    }

    /// Reads until `predicate` holds for the screen; false after `timeout` seconds.
    @discardableResult
    func waitForScreen(timeout: Double = 10, _ predicate: (ClientScreen) -> Bool) -> Bool {
        read(timeout: timeout) { _ in predicate(self.screen) }
    }

    /// Reads whatever arrives during the next `milliseconds` (keeps frame arrival times true while typing).
    func drain(forMs milliseconds: Int) {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
        while true {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { return }
            pump(waitMs: left)
        }
    }

    /// After the client exited: reads what it wrote until the terminal stays quiet for 200 ms.
    func readToEnd(timeout: Double = 10) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, pump(waitMs: 200) {}
    }

    /// The client's exit status, or nil if it is still running after `timeout` seconds.
    func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return nil }
            pump(waitMs: 10)
        }
        return process.terminationStatus
    }

    /// Reads once if something arrives within `waitMs`; true when bytes were read.
    @discardableResult
    private func pump(waitMs: Int32) -> Bool {
        var waiter = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&waiter, 1, waitMs) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        output += chunk[0..<count]
        screen.feed(chunk[0..<count])
        return true
    }
}

/// The libc pseudo-terminal calls, looked up at run time: Swift's Glibc module leaves them out (they sit
/// behind `_XOPEN_SOURCE` in `stdlib.h`), but they are ordinary exported libc functions.
private struct PseudoTerminalCalls {
    let openMaster: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let name: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    init() throws {
        func lookup<F>(_ symbol: String, as: F.Type) throws -> F {
            guard let address = dlsym(nil, symbol) else { throw EndToEndError("libc has no \(symbol)") }
            return unsafeBitCast(address, to: F.self)
        }
        openMaster = try lookup("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
        grant = try lookup("grantpt", as: (@convention(c) (Int32) -> Int32).self)
        unlock = try lookup("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
        name = try lookup("ptsname_r", as: (@convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32).self)
    }
}

extension Array where Element == UInt8 {
    /// True when `needle` occurs in these bytes.
    func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix) }
}
