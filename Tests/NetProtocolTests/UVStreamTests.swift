import CLibUV
import Testing
@testable import NetProtocol
@testable import NetLoop

/// Real TCP on 127.0.0.1 through the wrapper; every test ends with `uv_loop_close == 0`.
@Suite struct UVStreamTests {
    /// Starts a listener whose accepted connections are passed to `accepted`, and a client connected to it.
    private func pair(_ loop: EventLoop, accepted: @escaping (TCPConnection) -> Void,
                      connected: @escaping (TCPConnection) -> Void) throws -> TCPListener {
        let listener = try TCPListener(loop: loop, host: "127.0.0.1", port: 0, onConnection: accepted)
        let client = try TCPConnection(loop: loop)
        client.connect(to: listener.address) { error in
            #expect(error == nil)
            connected(client)
        }
        return listener
    }

    /// Like `pair`, but runs `ready` once both ends exist (accept and connect complete in either order).
    private func connectedPair(_ loop: EventLoop,
                               ready: @escaping (_ server: TCPConnection, _ client: TCPConnection, _ listener: TCPListener) -> Void) throws {
        var server: TCPConnection?
        var client: TCPConnection?
        var listener: TCPListener?
        func check() {
            if let server, let client, let listener { ready(server, client, listener) }
        }
        listener = try pair(loop, accepted: { server = $0; check() }, connected: { client = $0; check() })
        check()
    }

    @Test(.timeLimit(.minutes(3))) func echoRoundTripAndCleanClose() throws {
        let loop = try EventLoop()
        var received: [UInt8] = []
        var listener: TCPListener?
        listener = try pair(loop, accepted: { server in
            try? server.startReading(onData: { bytes in server.write(Array(bytes)) },
                                     onEnd: { _ in server.close() })
        }, connected: { client in
            try? client.startReading(onData: { bytes in
                received += bytes
                if received.count == 5 {
                    client.close()
                    listener?.close()
                }
            }, onEnd: { _ in client.close() })
            client.write(Array("hello".utf8))
        })
        loop.run()
        #expect(String(decoding: received, as: UTF8.self) == "hello")
        #expect(loop.liveHandles == 0)
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func connectToClosedPortFailsWithECONNREFUSED() throws {
        let loop = try EventLoop()
        let probe = try TCPListener(loop: loop, host: "127.0.0.1", port: 0) { $0.close() }
        let port = probe.address.port
        probe.close()
        loop.run()
        let client = try TCPConnection(loop: loop)
        var failure: UVError?
        client.connect(to: try SocketAddress(host: "127.0.0.1", port: port)) { error in
            failure = error
            client.close()
        }
        loop.run()
        #expect(failure?.name == "ECONNREFUSED")
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func latestOnlyWritesReplaceEachOtherWhileReliableOnesStayInOrder() throws {
        let loop = try EventLoop()
        var received: [UInt8] = []
        var listener: TCPListener?
        // More than the kernel's buffers take at once, so the writes after it have to wait in the queue.
        let blob = [UInt8](repeating: UInt8(ascii: "."), count: 32 << 20)
        listener = try pair(loop, accepted: { server in
            server.write(blob)
            #expect(server.pendingBytes > 0, "the kernel did not take 32 MiB at once")
            server.write(Array("s1".utf8), kind: .latestOnly)
            server.write(Array("B".utf8))
            server.write(Array("s2".utf8), kind: .latestOnly)
            server.write(Array("s3".utf8), kind: .latestOnly)
            server.write(Array("C".utf8))
            #expect(server.droppedLatestOnly == 2)
            server.closeAfterFlush(timeoutMs: 10_000)
        }, connected: { client in
            try? client.startReading(onData: { received += $0 }, onEnd: { _ in
                client.close()
                listener?.close()
            })
        })
        loop.run()
        #expect(received.count == blob.count + 4)
        #expect(String(decoding: received.suffix(4), as: UTF8.self) == "Bs3C")
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func writesToAnIdleConnectionGoStraightToTheKernel() throws {
        let loop = try EventLoop()
        var pendingAfterWrite = -1
        var received: [UInt8] = []
        var listener: TCPListener?
        listener = try pair(loop, accepted: { server in
            server.write(Array("one\n".utf8))
            server.write(Array("two\n".utf8))
            // uv_try_write took both at once: nothing waits in the queue or in libuv.
            pendingAfterWrite = server.pendingBytes
            server.closeAfterFlush(timeoutMs: 1000)
        }, connected: { client in
            try? client.startReading(onData: { received += $0 }, onEnd: { _ in
                client.close()
                listener?.close()
            })
        })
        loop.run()
        #expect(pendingAfterWrite == 0)
        #expect(String(decoding: received, as: UTF8.self) == "one\ntwo\n")
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func pendingBytesCountsWhatANonReaderHasNotTaken() throws {
        let loop = try EventLoop()
        var peak = 0
        try connectedPair(loop) { server, client, listener in
            server.maxInFlightBytes = 64 * 1024
            let chunk = SharedBytes([UInt8](repeating: 120, count: 64 * 1024))
            for _ in 0..<200 { server.write(chunk) }   // 12.5 MiB to a client that never reads
            peak = server.pendingBytes
            server.close()
            client.close()
            listener.close()
        }
        loop.run()
        #expect(peak > 8 * 1024 * 1024)
        #expect(peak <= 200 * 64 * 1024)
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func closingWithUnfinishedWritesReleasesEverything() throws {
        let loop = try EventLoop()
        try connectedPair(loop) { server, client, listener in
            for _ in 0..<50 { server.write([UInt8](repeating: 1, count: 256 * 1024)) }
            server.close()          // cancels in-flight writes; their callbacks free the requests
            client.close()
            listener.close()
        }
        loop.run()
        #expect(loop.liveHandles == 0)
        #expect(loop.close() == 0)
    }

    @Test(.timeLimit(.minutes(3))) func peerResetEndsReadingWithAnError() throws {
        let loop = try EventLoop()
        var endedWith: UVError?? = .none
        var listener: TCPListener?
        listener = try pair(loop, accepted: { server in
            try? server.startReading(onData: { _ in }, onEnd: { error in
                endedWith = .some(error)
                server.close()
                listener?.close()
            })
        }, connected: { client in client.closeReset() })
        loop.run()
        #expect(endedWith != nil)
        #expect(loop.close() == 0)
    }
}
