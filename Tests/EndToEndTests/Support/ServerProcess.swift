import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A failure to start or talk to the real `dynserver` binary.
struct EndToEndError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One real `dynserver` process on `127.0.0.1`, started with `--port 0` plus the caller's flags.
///
/// Guarantees: `init` returns only once the server printed its `dynserver listening on HOST:PORT` line
/// (or throws after 15 s, with the server's stderr in the error); `port` is the port it bound; the process is
/// killed (SIGKILL) and reaped when this object goes away, so no test leaves a server behind.
final class ServerProcess {
    /// The directory holding the built products: the test bundle sits next to the executables.
    static var productsDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["DYNSERVER_BIN"] {
            return URL(fileURLWithPath: override).deletingLastPathComponent()
        }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // On some toolchains the runner lives inside `X.xctest/...`; walk up to the build directory.
        while dir.path.contains(".xctest") { dir = dir.deletingLastPathComponent() }
        return dir
    }

    /// The `dynserver` executable the tests run (env `DYNSERVER_BIN` overrides).
    static var dynserverPath: String {
        ProcessInfo.processInfo.environment["DYNSERVER_BIN"] ?? productsDirectory.appendingPathComponent("dynserver").path
    }

    /// The `dynclient` executable next to `dynserver`, for the client's end-to-end tests.
    static var dynclientPath: String {
        ProcessInfo.processInfo.environment["DYNCLIENT_BIN"] ?? productsDirectory.appendingPathComponent("dynclient").path
    }

    let process = Process()
    let port: UInt16
    /// The HTTP/WebSocket port from `dynserver http on http://HOST:PORT/` (nil with `--no-http`).
    let httpPort: UInt16?
    private let stdoutPipe = Pipe()
    private let stderrURL: URL
    private let stderrHandle: FileHandle

    var pid: Int32 { process.processIdentifier }

    /// Everything the server logged on stderr so far.
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// `leading` goes before `--port 0` (a subcommand, e.g. `replay FILE --serve`).
    init(_ arguments: [String] = [], leading: [String] = [], startupTimeout: Double = 15) throws {
        let path = ServerProcess.dynserverPath
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw EndToEndError("no dynserver binary at \(path): run `swift build --build-tests` (or set DYNSERVER_BIN)")
        }
        stderrURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("dynserver-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        stderrHandle = try FileHandle(forWritingTo: stderrURL)
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = leading + ["--port", "0"] + arguments
        process.standardOutput = stdoutPipe
        process.standardError = stderrHandle
        process.standardInput = FileHandle.nullDevice
        try ChildProcess.launch(process)
        do {
            (port, httpPort) = try ServerProcess.awaitListeningLines(stdoutPipe.fileHandleForReading.fileDescriptor,
                                                                     timeout: startupTimeout,
                                                                     expectHTTP: !arguments.contains("--no-http"))
        } catch {
            let log = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw EndToEndError("\(error); server stderr:\n\(log)")
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? stderrHandle.close()
        try? FileManager.default.removeItem(at: stderrURL)
    }

    /// Sends a signal (SIGTERM, SIGINT, ...) to the server.
    func signal(_ signum: Int32) {
        kill(process.processIdentifier, signum)
    }

    /// The exit status once the process ended, or nil if it is still running after `timeout` seconds.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return nil }
            usleep(10_000)
        }
        return process.terminationStatus
    }

    /// Runs `action` on another thread once an observer connected now sees `count` clients in a snapshot
    /// (itself included), or after `timeout` seconds if it never does: for tests whose own thread is blocked
    /// in a child process that must be connected before the server is stopped. An event, not a timer.
    func whenClientsReach(_ count: Int, timeout: Double = 30, thenTicks ticks: UInt64 = 0,
                          _ action: @escaping @Sendable () -> Void) throws {
        let observer = ThreadOwned(try connect())
        _ = observer.value.join()
        DispatchQueue.global().async {
            let counted = observer.value.nextSnapshot(timeout: timeout) { $0.clients >= count }
            // Optionally `ticks` more of world time (a running world's ticks or a quiet one's keep-alives, one
            // every tick_hz ticks) with them still counted: connected for at least that long.
            if ticks > 0, let start = counted?.tick {
                _ = observer.value.nextSnapshot(timeout: timeout) { $0.clients >= count && $0.tick >= start + ticks }
            }
            action()
            withExtendedLifetime(observer) {}
        }
    }

    /// A new client connected to this server (not yet past `welcome`).
    func connect() throws -> LineClient {
        try LineClient(port: port)
    }

    /// Reads stdout until `dynserver listening on HOST:PORT` (and, when `expectHTTP`, the next line,
    /// `dynserver http on http://HOST:PORT/`) and returns both ports.
    private static func awaitListeningLines(_ fd: Int32, timeout: Double, expectHTTP: Bool) throws -> (UInt16, UInt16?) {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        var chunk = [UInt8](repeating: 0, count: 512)
        var tcpPort: UInt16?
        while true {
            if let newline = text.firstIndex(of: "\n") {
                let line = String(text[..<newline])
                text = String(text[text.index(after: newline)...])
                if let tcp = tcpPort {
                    let prefix = "dynserver http on http://"
                    guard line.hasPrefix(prefix), line.hasSuffix("/"), let colon = line.lastIndex(of: ":"),
                          let port = UInt16(line[line.index(after: colon)...].dropLast()) else {
                        throw EndToEndError("unexpected second stdout line: \(line)")
                    }
                    return (tcp, port)
                }
                let prefix = "dynserver listening on "
                guard line.hasPrefix(prefix), let colon = line.lastIndex(of: ":"),
                      let port = UInt16(line[line.index(after: colon)...]) else {
                    throw EndToEndError("unexpected first stdout line: \(line)")
                }
                if !expectHTTP { return (port, nil) }
                tcpPort = port
                continue
            }
            let remaining = Int(deadline.timeIntervalSinceNow * 1000)
            guard remaining > 0 else { throw EndToEndError("no listening line within \(timeout) s (stdout: \(text))") }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining)) > 0 else { continue }
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { throw EndToEndError("server closed stdout before listening (stdout: \(text))") }
            text += String(decoding: chunk[0..<n], as: UTF8.self)
        }
    }
}
