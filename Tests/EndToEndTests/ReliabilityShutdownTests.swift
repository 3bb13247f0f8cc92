import Foundation
import NetProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension EndToEnd {
    /// SIGTERM under load: with 50 clients flooding commands, every client's last line is `bye` and
    /// the server exits 0 within 2 s (README.md).
    @Suite(.serialized)
    struct ReliabilityShutdownTests {
        /// Floods `line` (one batch every 10 ms) while reading, until the server closes or resets the
        /// connection; returns the last complete line received and how many lines came.
        static func floodUntilClosed(_ socket: RawSocket, line: [UInt8], started: DispatchSemaphore) -> (last: String, lines: Int) {
            var tail: [UInt8] = []
            var lines = 0
            var sending = true
            var signalled = false
            var nextSend = Date()
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if sending, Date() >= nextSend {
                    sending = socket.send(line)
                    nextSend = nextSend.addingTimeInterval(0.01)
                }
                guard let bytes = socket.receive(timeout: 0.01) else { break }
                lines += bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                tail += bytes
                if tail.count > 1 << 16 { tail.removeFirst(tail.count - (1 << 15)) }
                if !signalled, lines > 0 { started.signal(); signalled = true }
            }
            if !signalled { started.signal() }
            let complete = tail.last == 0x0A ? tail.dropLast() : tail[...]
            let last = complete.split(separator: 0x0A, omittingEmptySubsequences: true).last.map { Array($0) } ?? []
            return (String(decoding: last, as: UTF8.self), lines)
        }

        @Test(.timeLimit(.minutes(15))) func sigtermWith50FloodingClientsSendsByeToEveryoneAndExitsZeroWithin2s() throws {
            let count = 50
            let server = try ServerProcess(["--scene", "default"])
            let sockets = try (0..<count).map { _ in ThreadOwned(try RawSocket(port: server.port)) }
            let results = ResultsBox(count: count)
            let started = DispatchSemaphore(value: 0)
            // 5 commands per 10 ms: 500/s per client, four times the rate limit, 25 000 lines/s in all.
            let line = Array(String(repeating: #"{"type":"tap","x":400,"y":300}"# + "\n", count: Reliability.isSanitized ? 2 : 5).utf8)
            let group = DispatchGroup()
            for index in 0..<count {
                group.enter()
                let socket = sockets[index]
                Thread {
                    results.set(index, Self.floodUntilClosed(socket.value, line: line, started: started))
                    group.leave()
                }.start()
            }
            for _ in 0..<count { started.wait() }
            usleep(1_000_000)   // a second of flooding from everyone
            let sent = Date()
            server.signal(SIGTERM)
            let status = server.waitForExit(timeout: Reliability.measuresTiming ? 5 : 30)
            let exitSeconds = Date().timeIntervalSince(sent)
            group.wait()
            #expect(status == 0, "exit status \(String(describing: status))")
            // How fast is a figure, judged under `make soak` (DYN_TIMING=1) only; `make test` checks that it exits 0.
            #expect(!Reliability.measuresTiming || exitSeconds < 2, "exited after \(exitSeconds) s")
            for index in 0..<count {
                let (last, lines) = results.get(index)
                #expect(last == #"{"type":"bye","reason":"shutdown"}"#, "client \(index) (\(lines) lines) ended with: \(last.prefix(160))")
            }
        }
    }

    /// Per-thread results, written once by each worker and read after all have finished.
    final class ResultsBox: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [(String, Int)]
        init(count: Int) { values = Array(repeating: ("", 0), count: count) }
        func set(_ index: Int, _ value: (String, Int)) { lock.withLock { values[index] = value } }
        func get(_ index: Int) -> (String, Int) { lock.withLock { values[index] } }
    }
}
