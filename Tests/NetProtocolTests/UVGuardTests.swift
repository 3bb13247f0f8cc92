import CLibUV
import Testing
@testable import NetProtocol
@testable import NetLoop

/// Use after close: every wrapper refuses calls on a closing or closed handle with `EBADF` (or does nothing)
/// and never hands libuv the freed memory; `didClose` sees the memory still allocated.
@Suite struct UVGuardTests {
    /// A handle that records, in `didClose`, whether its memory had been freed yet.
    final class ProbeTimer: UVHandle {
        var memoryFreedAtDidClose: Bool?
        var typeAtDidClose: uv_handle_type?

        init(loop: EventLoop) throws {
            super.init(loop: loop, type: UV_TIMER)
            try uvCheck(uv_timer_init(loop.raw, memory.assumingMemoryBound(to: uv_timer_t.self)), "uv_timer_init")
            adopt()
        }

        override func didClose() {
            memoryFreedAtDidClose = memoryFreed
            typeAtDidClose = handle.pointee.type
        }
    }

    @Test(.timeLimit(.minutes(3))) func didCloseRunsBeforeTheMemoryIsFreed() throws {
        let loop = try EventLoop()
        let probe = try ProbeTimer(loop: loop)
        var completed = false
        probe.close { completed = true }
        loop.run()
        #expect(probe.memoryFreedAtDidClose == false)
        #expect(probe.typeAtDidClose == UV_TIMER, "the handle's memory is intact in didClose")
        #expect(probe.memoryFreed && completed)
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func aClosedTimerRefusesToStartWithEBADF() throws {
        let loop = try EventLoop()
        let timer = try UVTimer(loop: loop)
        timer.close()
        #expect(!timer.isOpen)
        // Closing but not yet freed, then freed: both refused.
        #expect(throws: UVError.closedHandle("uv_timer_start")) { try timer.start(afterMs: 1) {} }
        loop.run()
        var fired = false
        let error = #expect(throws: UVError.self) { try timer.start(afterMs: 1) { fired = true } }
        #expect(error?.name == "EBADF")
        #expect(error?.description.contains("on a closed handle") == true)
        timer.stop()
        timer.ref()
        timer.unref()
        timer.close()
        loop.run()
        #expect(!fired)
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func aClosedConnectionRefusesEveryOperation() throws {
        let loop = try EventLoop()
        let connection = try TCPConnection(loop: loop)
        connection.close()
        loop.run()
        #expect(connection.peer == nil)
        connection.setNoDelay(true)
        #expect(throws: UVError.closedHandle("uv_send_buffer_size")) { try connection.setSendBufferSize(4096) }
        #expect(throws: UVError.self) { try connection.startReading(onData: { _ in }, onEnd: { _ in }) }
        connection.pauseReadingStream()
        #expect(throws: Never.self) { try connection.resumeReadingStream() }
        connection.write(Array("lost".utf8))
        #expect(connection.pendingBytes == 0, "nothing is queued on a closed connection")
        var connectError: UVError?
        connection.connect(to: try SocketAddress(host: "127.0.0.1", port: 9)) { connectError = $0 }
        #expect(connectError?.name == "EBADF")
        connection.closeAfterFlush(timeoutMs: 10)
        connection.closeReset()
        connection.close()
        loop.run()
        #expect(loop.liveHandles == 0)
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func aClosedListenerAndSignalWatcherIgnoreRefAndUnref() throws {
        let loop = try EventLoop()
        let listener = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { $0.close() }
        let watcher = try SignalWatcher(loop: loop, signal: SIGUSR2) { _ in }
        listener.close()
        watcher.close()
        loop.run()
        for handle in [listener as UVHandle, watcher] {
            handle.ref()
            handle.unref()
            #expect(!handle.isOpen)
        }
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func closingTwiceRunsTheCompletionOnce() throws {
        let loop = try EventLoop()
        let timer = try UVTimer(loop: loop)
        var completions = 0
        timer.close { completions += 1 }
        timer.close { completions += 1 }
        loop.run()
        timer.close { completions += 1 }
        loop.run()
        #expect(completions == 1)
        #expect(loop.close() == 0)
    }
}
