import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starting, waiting for and reading the test runner's child processes (servers, clients, Chromium,
/// dynbench, outside tools).
///
/// Guarantees: a process started with `launch` gets SIGKILL when the runner dies, however it dies (a crash,
/// a failed `#require` in a `deinit`-less path, a kill): it runs under `setpriv --pdeathsig KILL`, started
/// from one thread that lives as long as the runner, because Linux sends the parent-death signal when the
/// *thread* that forked the child ends, not only the process. Without setpriv (util-linux missing outside
/// CI; bootstrap requires it under CI=true) children start as they are and only their owners' `deinit`s
/// stop them. `run` waits with a timeout (then kills) and drains stdout and stderr concurrently, so a child
/// that fills one pipe never blocks while the other is read.
enum ChildProcess {
    /// `setpriv`, when this machine has it.
    static let setpriv: String? = RequiredTool.setpriv.path

    /// Starts `process` tied to the runner's life (see the type's guarantees). The process's pid is the
    /// program's own: setpriv sets the signal and then execs it.
    static func launch(_ process: Process) throws {
        if let setpriv, let executable = process.executableURL {
            process.arguments = ["--pdeathsig", "KILL", "--", executable.path] + (process.arguments ?? [])
            process.executableURL = URL(fileURLWithPath: setpriv)
        }
        try LauncherThread.shared.perform { try process.run() }
    }

    /// True once `process` ended; false if it still runs after `timeout` seconds.
    static func waitForExit(_ process: Process, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// What a finished run printed, and how it ended.
    struct Outcome {
        /// The exit status; nil when the run was killed for taking longer than its timeout.
        var status: Int32?
        var stdout: Data
        var stderr: Data
        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `path` with `arguments` and `input` on stdin to the end, or kills it after `timeout` seconds.
    static func run(_ path: String, _ arguments: [String], input: String = "", timeout: Double = 60) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try launch(process)
        let stdoutData = Drain(out.fileHandleForReading), stderrData = Drain(err.fileHandleForReading)
        // Written from another thread: a child that never reads its stdin must not block the runner.
        let writer = stdin.fileHandleForWriting
        let bytes = Data(input.utf8)
        DispatchQueue.global().async {
            writer.write(bytes)
            try? writer.close()
        }
        let finished = waitForExit(process, timeout: timeout)
        if !finished {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return Outcome(status: finished ? process.terminationStatus : nil,
                       stdout: stdoutData.wait(timeout: 5), stderr: stderrData.wait(timeout: 5))
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class Drain: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async { [self] in
            let all = handle.readDataToEndOfFile()
            lock.withLock { data = all }
            done.signal()
        }
    }

    /// Everything read, once the writer closed (or what there is after `timeout` seconds: a grandchild may
    /// still hold the pipe open).
    func wait(timeout: Double) -> Data {
        _ = done.wait(timeout: .now() + timeout)
        return lock.withLock { data }
    }
}

/// One thread that lives as long as the runner and starts every child (see `ChildProcess`).
private final class LauncherThread: @unchecked Sendable {
    static let shared = LauncherThread()
    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in loop() }
        thread.name = "dyn-test-launcher"
        thread.start()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// Runs `body` on the launcher thread, under the caller's signal mask (a child inherits the mask of the
    /// thread that started it, and what the caller blocked is what the child must see), and returns (or
    /// throws) what it did.
    func perform(_ body: @escaping () throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        var failure: Error?
        var callerMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &callerMask)
        condition.lock()
        jobs.append {
            var ownMask = sigset_t()
            pthread_sigmask(SIG_SETMASK, &callerMask, &ownMask)
            do { try body() } catch { failure = error }
            pthread_sigmask(SIG_SETMASK, &ownMask, nil)
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        if let failure { throw failure }
    }
}
