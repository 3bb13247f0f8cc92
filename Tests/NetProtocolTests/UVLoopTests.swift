import CLibUV
import Testing
@testable import NetProtocol
@testable import NetLoop
#if canImport(Glibc)
import Glibc
#endif

/// Each test runs its own loop and ends by asserting `uv_loop_close` returns 0: no handle leaked.
@Suite struct UVLoopTests {
    @Test(.timeLimit(.minutes(3))) func timerFiresOnceAndLoopClosesClean() throws {
        let loop = try EventLoop()
        let timer = try UVTimer(loop: loop)
        var fired = 0
        try timer.start(afterMs: 5) {
            fired += 1
            timer.close()
        }
        loop.run()
        #expect(fired == 1)
        #expect(loop.liveHandles == 0)
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func repeatingTimerFiresUntilStopped() throws {
        let loop = try EventLoop()
        let timer = try UVTimer(loop: loop)
        var fired = 0
        try timer.start(afterMs: 1, repeatMs: 1) {
            fired += 1
            if fired == 5 { timer.close() }
        }
        loop.run()
        #expect(fired == 5)
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func openHandleMakesLoopCloseBusy() throws {
        let loop = try EventLoop()
        let timer = try UVTimer(loop: loop)
        #expect(loop.close() == Int32(UV_EBUSY.rawValue))
        timer.close()
        loop.run()
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func bindConflictIsUVErrorNamedEADDRINUSE() throws {
        let loop = try EventLoop()
        let first = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { $0.close() }
        #expect(first.address.port > 0)
        do {
            _ = try TCPListener(loop: loop, host: "127.0.0.1", port: first.address.port) { $0.close() }
            Issue.record("second bind succeeded")
        } catch {
            #expect(error.name == "EADDRINUSE")
            // Linux reports the conflict at listen(), other systems at bind().
            #expect(error.operation.contains(String(first.address.port)))
        }
        first.close()
        loop.run()
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func badAddressIsEINVAL() throws {
        #expect(throws: UVError.self) { try SocketAddress(host: "not-an-ip", port: 1) }
        do { _ = try SocketAddress(host: "999.1.1.1", port: 80) } catch { #expect(error.name == "EINVAL") }
    }

    @Test(.timeLimit(.minutes(3))) func signalWatcherDeliversOnLoopThread() throws {
        let loop = try EventLoop()
        var got: Int32 = 0
        var watcher: SignalWatcher?
        watcher = try SignalWatcher(loop: loop, signal: SIGUSR1) { signum in
            got = signum
            watcher?.close()
        }
        let timer = try UVTimer(loop: loop)
        try timer.start(afterMs: 1) {
            kill(getpid(), SIGUSR1)   // process-directed: test threads may block signals
            timer.close()
        }
        loop.run()
        #expect(got == SIGUSR1)
        #expect(loop.close() == 0)
    }
}
