#if canImport(Glibc)
import Glibc
#endif
import NetProtocol

/// The interactive terminal client: draws the world live and turns keys and mouse into commands.
///
/// Guarantees: the terminal is restored (see `TerminalSession`) on every way out: q, Ctrl-C, SIGINT, SIGTERM,
/// SIGHUP, the server gone with `--no-reconnect`, a thrown error, `exit()` and crash signals; Ctrl-Z and
/// SIGTSTP restore it and stop the process, SIGCONT re-enters and redraws in full; SIGWINCH re-reads the
/// size and re-lays out. At most one frame is written per render tick (30 per second), as one write.
final class InteractiveApp {
    private let loop: EventLoop
    private let link: ServerLink
    private let input: TTYHandle
    private let session: TerminalSession
    private let colorMode: ColorMode
    private var decoder = InputDecoder()
    private var world = WorldModel()
    private var feed = CompactFeed()
    private var interaction = Interaction()
    private var status: StatusInfo
    private var messageExpiresMs: UInt64 = 0
    private var snapshotsThisSecond = 0
    private var previousFrame: ScreenFrame?
    private var size: (columns: Int, rows: Int)
    private var escapeTimer: UVTimer?
    private var timers: [UVTimer] = []
    private var watchers: [SignalWatcher] = []
    private var nextID = 1
    private var pendingDragBegin: MessageID?
    private var reconnect: (atMs: UInt64, attempt: Int, reason: String)?
    private var exitCode: Int32 = 0
    private var finished = false

    static let frameIntervalMs: UInt64 = 33
    static let messageLifetimeMs: UInt64 = 5000
    /// How long a lone ESC waits for the rest of a sequence before it counts as the Escape key.
    static let escapeTimeoutMs: UInt64 = 30

    init(loop: EventLoop, link: ServerLink, colorMode: ColorMode) throws(UVError) {
        self.loop = loop
        self.link = link
        self.colorMode = colorMode
        input = try TTYHandle(loop: loop, fd: 0, readable: true)
        session = TerminalSession(input: input)
        status = StatusInfo(address: link.address.description)
        size = Self.usableSize((try? input.windowSize()) ?? (0, 0))
    }

    /// Runs until the user quits or the connection is given up; returns the exit code.
    func run() -> Int32 {
        TerminalSession.installExitHooks()
        do {
            try session.enter()
            try startInput()
            try startTimers()
            try startSignals()
        } catch {
            finish(code: 1, message: "dynclient: \(error)")
            return exitCode
        }
        link.onUp = { [weak self] in self?.linkUp() }
        link.onLine = { [weak self] line in self?.serverLine(line) }
        link.onDown = { [weak self] down in self?.linkDown(down) }
        link.start()
        render()
        loop.run()
        return exitCode
    }

    // MARK: setup

    private func startInput() throws(UVError) {
        try input.startReading(onData: { [weak self] bytes in
            guard let self else { return }
            self.handle(self.decoder.feed(bytes))
            if self.decoder.hasPending { self.armEscapeTimer() }
        }, onEnd: { [weak self] _ in
            self?.finish(code: 1, message: "dynclient: the terminal went away")
        })
        escapeTimer = try UVTimer(loop: loop)
    }

    private func armEscapeTimer() {
        try? escapeTimer?.start(afterMs: Self.escapeTimeoutMs) { [weak self] in
            guard let self else { return }
            self.handle(self.decoder.flushPending())
        }
    }

    private func startTimers() throws(UVError) {
        let renderTimer = try UVTimer(loop: loop)
        try renderTimer.start(afterMs: Self.frameIntervalMs, repeatMs: Self.frameIntervalMs) { [weak self] in self?.render() }
        let secondTimer = try UVTimer(loop: loop)
        try secondTimer.start(afterMs: 1000, repeatMs: 1000) { [weak self] in self?.everySecond() }
        timers = [renderTimer, secondTimer]
    }

    private func startSignals() throws(UVError) {
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            watchers.append(try SignalWatcher(loop: loop, signal: signal) { [weak self] _ in self?.finish(code: 0) })
        }
        watchers.append(try SignalWatcher(loop: loop, signal: SIGTSTP) { [weak self] _ in self?.suspend() })
        watchers.append(try SignalWatcher(loop: loop, signal: SIGCONT) { [weak self] _ in self?.resume() })
        watchers.append(try SignalWatcher(loop: loop, signal: SIGWINCH) { [weak self] _ in self?.resized() })
    }

    // MARK: server

    private func linkUp() {
        status.connection = .connecting
        reconnect = nil
        nextID = 1
        pendingDragBegin = nil
    }

    private func linkDown(_ down: ServerLink.Down) {
        world.connectionLost()
        interaction.dragRejected()
        guard let retry = down.retryInMs else {
            finish(code: 1, message: "dynclient: \(down.reason) (not reconnecting)")
            return
        }
        reconnect = (loop.nowMs + retry, down.attempt, down.reason)
    }

    private func serverLine(_ line: UnsafeRawBufferPointer) {
        guard let message = ServerMessage.decode(line) else { return }
        switch message {
        case let .welcome(welcome):
            world.apply(welcome: welcome)
            link.markHealthy()
            status.connection = .connected
            status.clientID = welcome.client
            previousFrame = nil
            feed.reset()
        case let .scene(scene):
            world.apply(scene: scene)
            interaction.sceneChanged(world: world)
            status.items = scene.bodies.count
        case .snapshot, .frame:
            guard let snapshot = feed.snapshot(from: message) else {
                if feed.needsKeyframe { send(CompactFeed.keyframeRequest) }
                return
            }
            world.apply(snapshot: snapshot, arrivalMs: loop.nowMs)
            snapshotsThisSecond += 1
            status.tick = snapshot.tick
            status.paused = snapshot.paused
            status.clients = snapshot.clients
        case let .error(error):
            if let id = error.id, id == pendingDragBegin { interaction.dragRejected() }
            show("error \(error.code.rawValue): \(error.message)")
        case let .pong(t, _, _):
            if case let .number(sent)? = t { status.pingMs = max(0, Self.clockMs() - sent) }
        case let .bye(reason):
            show("server said bye (\(reason))")
        case .ack, .contact, .notice:
            break
        }
    }

    private func send(_ command: ClientCommand) {
        guard link.isConnected else {
            show("not connected: command not sent")
            return
        }
        let id = MessageID.number(String(nextID))
        nextID += 1
        if case .drag(.begin, _, _, _) = command { pendingDragBegin = id }
        link.send(ClientMessage(id: id, command).encoded())
    }

    /// A terminal that reports no size (some pseudo-terminals start at 0 x 0) is drawn as 80 x 24.
    static func usableSize(_ reported: (columns: Int, rows: Int)) -> (columns: Int, rows: Int) {
        reported.columns > 0 && reported.rows > 0 ? reported : (80, 24)
    }

    private static func clockMs() -> Double { Double(EventLoop.hrtimeNs) / 1_000_000 }

    // MARK: input

    private func handle(_ events: [InputEvent]) {
        for event in events {
            let viewport = SceneRenderer.viewport(world: world, columns: size.columns, rows: size.rows)
            let actions = interaction.handle(event, world: world, viewport: viewport, poses: world.poses(atMs: loop.nowMs))
            for action in actions {
                switch action {
                case let .send(command): send(command)
                case let .notice(text): show(text)
                case .suspend: suspend()
                case .quit:
                    finish(code: 0)
                    return
                }
            }
        }
        render()
    }

    private func show(_ text: String) {
        status.message = text
        messageExpiresMs = loop.nowMs + Self.messageLifetimeMs
    }

    // MARK: periodic work

    private func everySecond() {
        status.snapshotRate = snapshotsThisSecond
        snapshotsThisSecond = 0
        if link.isConnected { link.send(ClientMessage(.ping(t: .number(Self.clockMs()))).encoded()) }
    }

    private func render() {
        guard !finished, session.isActive else { return }
        if status.message != nil, loop.nowMs >= messageExpiresMs { status.message = nil }
        status.selected = interaction.selected
        loop.updateTime()
        if let reconnect {
            let now = loop.nowMs
            status.connection = .reconnecting(inMs: reconnect.atMs > now ? reconnect.atMs - now : 0,
                                              attempt: reconnect.attempt, reason: reconnect.reason)
        }
        let frame = SceneRenderer.render(world: world, poses: world.poses(atMs: loop.nowMs), interaction: interaction,
                                         status: status, columns: size.columns, rows: size.rows)
        let bytes = ScreenDiff.render(previous: previousFrame, next: frame, colorMode: colorMode)
        previousFrame = frame
        if !bytes.isEmpty, !FDWriter.writeAll(1, bytes) { finish(code: 1, message: "dynclient: cannot write to the terminal") }
    }

    // MARK: terminal events

    private func resized() {
        if let fresh = try? input.windowSize() { size = Self.usableSize(fresh) }
        previousFrame = nil
        render()
    }

    private func suspend() {
        guard session.isActive else { return }
        session.leave()
        raise(SIGSTOP)
        // Execution continues here once the shell resumes the process (SIGCONT follows).
        resume()
    }

    private func resume() {
        guard !finished else { return }
        if !session.isActive {
            do { try session.enter() } catch {
                finish(code: 1, message: "dynclient: cannot restore raw mode: \(error)")
                return
            }
        }
        FDWriter.writeAll(1, TerminalModes.clear)
        resized()
    }

    /// Every way out: restore the terminal, drop the connection, close every handle so the loop ends.
    private func finish(code: Int32, message: String? = nil) {
        guard !finished else { return }
        finished = true
        exitCode = code
        session.leave()
        if let message { FDWriter.writeAll(2, Array((message + "\n").utf8)) }
        link.shutdown()
        input.stopReading()
        escapeTimer?.close()
        timers.forEach { $0.close() }
        watchers.forEach { $0.close() }
        input.close()
        loop.stop()
    }
}
