#if canImport(Glibc)
import Glibc
#endif
import NetProtocol
import NetLoop

/// The headless client for scripts and tests: server lines out, commands in.
///
/// Guarantees: every line the server sends is written to stdout as received, one line each, whatever it
/// is (unknown messages included); stdin lines are sent in order once connected (short syntax translated,
/// raw JSON as is, `wait MS` holding back the lines after it); a bad short-syntax line is reported on
/// stderr with its line number and skipped; once stdin has ended and every line has been sent, the client
/// sends a `ping` of its own (id `dynclient-end`) and `--linger` ms after the server answered it — so after
/// the server answered everything sent before it (a connection's messages are answered in order) — it exits
/// 0; that pong is not printed. Unless `follow`: then it keeps printing until the server closes the
/// connection (exit 0) or a signal arrives. With `--no-reconnect`, losing the server exits 1 (a follower
/// whose input has ended exits 0: the server closing is how following ends). Packed frames are the one
/// exception to "as received": each is decoded and printed as the `snapshot` line of the state it describes
/// (docs/PROTOCOL.md, "packed"), so scripts see what a packed client sees.
final class HeadlessApp {
    private let loop: EventLoop
    private let link: ServerLink
    private let lingerMs: UInt64
    private let follow: Bool
    private let reader = StdinReader()
    private var framer = LineFramer(maxLineBytes: 1 << 20)
    private var queue: [String] = []
    private var lineNumber = 0
    private var inputEnded = false
    private var waitUntilMs: UInt64 = 0
    private var pollTimer: UVTimer?
    private var lingerTimer: UVTimer?
    private var watchers: [SignalWatcher] = []
    private var exitCode: Int32 = 0
    private var finished = false
    private var packed = PackedApplier()
    /// The closing ping went out on this connection (sent again after a reconnect).
    private var endPingSent = false
    /// The closing ping waits at most this long for its pong (a server that never answers).
    static let endPingWaitMs: UInt64 = 10_000
    static let endPingID = "dynclient-end"

    static let pollIntervalMs: UInt64 = 10

    init(loop: EventLoop, link: ServerLink, lingerMs: UInt64, follow: Bool = false) {
        self.loop = loop
        self.link = link
        self.lingerMs = lingerMs
        self.follow = follow
    }

    func run() -> Int32 {
        do {
            let timer = try UVTimer(loop: loop)
            try timer.start(afterMs: 0, repeatMs: Self.pollIntervalMs) { [weak self] in self?.poll() }
            pollTimer = timer
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                watchers.append(try SignalWatcher(loop: loop, signal: signal) { [weak self] _ in self?.finish(code: 0) })
            }
        } catch {
            FDWriter.writeAll(2, Array("dynclient: \(error)\n".utf8))
            return 1
        }
        link.onLine = { [weak self] line in self?.serverLine(line) }
        link.onDown = { [weak self] down in self?.linkDown(down) }
        link.onUp = { [weak self] in self?.sendQueued() }
        link.start()
        loop.run()
        return exitCode
    }

    private func serverLine(_ line: UnsafeRawBufferPointer) {
        if isEndPong(line) {
            if lingerTimer == nil { startLinger() }
            return
        }
        var bytes = [UInt8](line)
        if bytes.starts(with: Self.welcomePrefix) { packed.reset() }
        if bytes.starts(with: Self.packedPrefix) {
            guard let decoded = decodePacked(line) else { return }
            bytes = decoded
        }
        // A join's ack (docs/PROTOCOL.md, Rooms): a reconnect returns to that room, with its token.
        if bytes.starts(with: Self.ackPrefix), case let .ack(_, fields)? = ServerMessage.decode(line),
           let room = fields.first(where: { $0.0 == "room" })?.1.string {
            link.setRoom(room, token: fields.first { $0.0 == "room_token" }?.1.string)
        }
        bytes.append(0x0A)
        if !FDWriter.writeAll(1, bytes) { finish(code: 1) }
        // A redirect: the room is on another server of the fleet; the link goes there and joins it.
        if bytes.starts(with: Self.redirectPrefix), case let .redirect(redirect)? = ServerMessage.decode(line) {
            link.follow(redirect)
        }
    }

    private static let redirectPrefix = Array(#"{"type":"redirect""#.utf8)

    private static let welcomePrefix = Array(#"{"type":"welcome""#.utf8)

    private static let packedPrefix = Array(#"{"type":"packed""#.utf8)

    /// The `snapshot` line (without its newline) of a `packed` line applied to the state held; nil, with the
    /// reason on stderr and a keyframe asked for, when it does not decode.
    private func decodePacked(_ line: UnsafeRawBufferPointer) -> [UInt8]? {
        do throws(PackedDecodeError) {
            guard case let .packed(_, data)? = ServerMessage.decode(line) else {
                throw PackedDecodeError("the packed line is not JSON with a tick and base64 data")
            }
            let snapshot = try packed.apply(data)
            // Written as a full snapshot writes it: positions to 1/100 pt, angles to 1/1000 rad.
            var encoded = ServerMessage.snapshot(snapshot).encoded()
            if encoded.last == 0x0A { encoded.removeLast() }
            return encoded
        } catch {
            FDWriter.writeAll(2, Array("dynclient: packed frame refused (\(error)); asking for a keyframe\n".utf8))
            packed.reset()
            link.send(ClientMessage(.subscribe(SubscriptionChange(snapshots: .packed))).encoded())
            return nil
        }
    }

    private static let ackPrefix = Array(#"{"type":"ack""#.utf8)

    private func linkDown(_ down: ServerLink.Down) {
        // Its pong will not come on this connection: the closing ping goes again on the next.
        endPingSent = false
        if follow, inputEnded, queue.isEmpty {
            FDWriter.writeAll(2, Array("dynclient: \(down.reason)\n".utf8))
            finish(code: 0)
            return
        }
        if let retry = down.retryInMs {
            FDWriter.writeAll(2, Array("dynclient: \(down.reason); reconnecting in \(retry) ms\n".utf8))
        } else {
            FDWriter.writeAll(2, Array("dynclient: \(down.reason)\n".utf8))
            finish(code: 1)
        }
    }

    /// Reads what stdin has, then sends what may be sent.
    private func poll() {
        loop.updateTime()
        if endPingSent, lingerTimer == nil, loop.nowMs >= endPingDeadlineMs {
            FDWriter.writeAll(2, Array("dynclient: no answer to the closing ping in \(Self.endPingWaitMs) ms\n".utf8))
            return startLinger()
        }
        // A bounded number of reads per tick, so an endless fast pipe cannot starve the loop.
        reading: for _ in 0..<16 where !inputEnded {
            switch reader.readAvailable() {
            case let .data(bytes):
                framer.feed(bytes) { event in self.framed(event) }
            case .end:
                inputEnded = true
                // A last line without its newline still counts.
                framer.feed([0x0A]) { event in self.framed(event) }
            case .idle:
                break reading
            }
        }
        sendQueued()
    }

    private func framed(_ event: LineFramer.Event) {
        lineNumber += 1
        switch event {
        case let .line(line): queue.append(String(decoding: line, as: UTF8.self))
        case .tooLong: FDWriter.writeAll(2, Array("dynclient: stdin line \(lineNumber) is too long, skipped\n".utf8))
        }
    }

    private func sendQueued() {
        guard !finished else { return }
        loop.updateTime()
        while link.isConnected, !queue.isEmpty, loop.nowMs >= waitUntilMs {
            let line = queue.removeFirst()
            do throws(ShortCommandError) {
                let context = ShortContext(pingTime: Double(EventLoop.hrtimeNs) / 1_000_000)
                let parsed = try ShortCommand.parse(line, context: context)
                if let bytes = parsed.bytes { link.send(bytes) }
                if case let .wait(milliseconds) = parsed { waitUntilMs = loop.nowMs + milliseconds }
            } catch {
                FDWriter.writeAll(2, Array("dynclient: \(error) (skipped: \(line))\n".utf8))
            }
        }
        guard inputEnded, queue.isEmpty, loop.nowMs >= waitUntilMs, lingerTimer == nil, !follow else { return }
        guard link.isConnected else { return startLinger() }
        guard !endPingSent else { return }
        endPingSent = true
        link.send(ClientMessage(id: .string(Self.endPingID), .ping(t: nil)).encoded())
        endPingDeadlineMs = loop.nowMs + Self.endPingWaitMs
    }

    private var endPingDeadlineMs: UInt64 = .max

    /// True for the pong of the closing ping (then the linger starts and the line is not printed).
    private func isEndPong(_ line: UnsafeRawBufferPointer) -> Bool {
        guard endPingSent, line.starts(with: Self.pongPrefix), case let .pong(_, _, id)? = ServerMessage.decode(line),
              id == .string(Self.endPingID) else { return false }
        return true
    }

    private static let pongPrefix = Array(#"{"type":"pong""#.utf8)

    private func startLinger() {
        pollTimer?.close()
        pollTimer = nil
        do {
            let timer = try UVTimer(loop: loop)
            try timer.start(afterMs: lingerMs) { [weak self] in self?.finish(code: 0) }
            lingerTimer = timer
        } catch {
            finish(code: 0)
        }
    }

    private func finish(code: Int32) {
        guard !finished else { return }
        finished = true
        exitCode = code
        link.shutdown(flushing: true)
        pollTimer?.close()
        lingerTimer?.close()
        watchers.forEach { $0.close() }
        loop.stop()
    }
}
