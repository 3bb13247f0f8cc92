#if canImport(Glibc)
import Glibc
#endif
import NetProtocol
import NetLoop

/// The interactive terminal client: draws the world live and turns keys and mouse into commands.
///
/// Guarantees: the terminal is restored (see `TerminalSession`) on every way out: q, Ctrl-C, SIGINT, SIGTERM,
/// SIGHUP, the server gone with `--no-reconnect`, a thrown error, `exit()` and crash signals; Ctrl-Z and
/// SIGTSTP restore it and stop the process, SIGCONT re-enters and redraws in full; SIGWINCH re-reads the
/// size and re-lays out. Frames are written by the render tick (30 per second), each as one write; input
/// shows in the next tick's frame.
final class InteractiveApp {
    private let loop: EventLoop
    private let link: ServerLink
    private let input: TTYHandle
    private let session: TerminalSession
    private let colorMode: ColorMode
    private let name: String
    private var decoder = InputDecoder()
    private var world = WorldModel()
    private var feed = CompactFeed()
    private var interaction = Interaction()
    private var dragEcho = DragEcho()
    private var gestureClock = GestureClock(environment: DynClientCommand.environment())
    private var status: StatusInfo
    private var feedback = Feedback()
    /// Commands sent with our ids and not yet answered: what they were, for the answer's feedback.
    private var pending: [MessageID: ClientCommand] = [:]
    private var snapshotsThisSecond = 0
    private var previousFrame: ScreenFrame?
    private var size: (columns: Int, rows: Int)
    private var escapeTimer: UVTimer?
    private var timers: [UVTimer] = []
    private var watchers: [SignalWatcher] = []
    private var nextID = 1
    private var pendingDragBegin: MessageID?
    /// The world had no gravity when the last `gravity` command was sent (its answer says it turned it on).
    private var gravityWasOff = false
    private var reconnect: (atMs: UInt64, attempt: Int, reason: String)?
    private var exitCode: Int32 = 0
    private var finished = false

    static let frameIntervalMs: UInt64 = 33
    private var lastFrameMs: UInt64?
    /// How long a lone ESC waits for the rest of a sequence before it counts as the Escape key.
    static let escapeTimeoutMs: UInt64 = 30

    init(loop: EventLoop, link: ServerLink, colorMode: ColorMode, name: String, contacts: Bool = false) throws(UVError) {
        self.loop = loop
        self.link = link
        self.colorMode = colorMode
        self.name = name
        if contacts { interaction.showContactsFromStart() }
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
        try renderTimer.start(afterMs: Self.frameIntervalMs, repeatMs: Self.frameIntervalMs) { [weak self] in self?.render(fromTimer: true) }
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
        status.readOnly = nil
        reconnect = nil
        nextID = 1
        pendingDragBegin = nil
        pending.removeAll()
    }

    /// This client is in another room now: what the last one showed (notices, rings, flashes, a read-only
    /// state) is not about this one.
    private func enteredAnotherRoom() {
        feedback.roomChanged()
        status.readOnly = nil
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
            if welcome.room != status.room { enteredAnotherRoom() }
            status.room = welcome.room
            link.markHealthy()
            status.connection = .connected
            feedback.connectionRestored()
            previousFrame = nil
            feed.reset()
        case let .scene(scene):
            world.apply(scene: scene)
            interaction.sceneChanged(world: world)
            status.items = scene.bodies.count
            status.scene = scene.name
        case .snapshot, .frame, .packed:
            guard let snapshot = feed.snapshot(from: message) else {
                if feed.needsKeyframe, link.isConnected { link.send(ClientMessage(feed.keyframeRequest).encoded()) }
                return
            }
            world.apply(snapshot: snapshot, arrivalMs: loop.nowMs)
            snapshotsThisSecond += 1
            status.tick = snapshot.tick
            let motion: WorldMotion = snapshot.held ? .held : snapshot.paused ? .atRest : .running
            // At rest, the tick shown is the one it came to rest at: keep-alive snapshots count on.
            if motion != .atRest { status.restTick = nil } else if status.motion != .atRest { status.restTick = snapshot.tick }
            status.motion = motion
            status.clients = snapshot.clients
        case let .error(error):
            answered(error: error)
        case let .ack(id, fields):
            if let room = fields.first(where: { $0.0 == "room" })?.1.string {
                if room != status.room { enteredAnotherRoom() }
                status.room = room
                link.setRoom(room, token: fields.first { $0.0 == "room_token" }?.1.string)
            }
            if let id, let command = pending.removeValue(forKey: id) { succeeded(command, fields: fields) }
        case let .pong(t, _, _):
            if case let .number(sent)? = t { status.pingMs = max(0, Self.clockMs() - sent) }
        case let .bye(reason):
            feedback.failed("server said bye (\(reason))")
        case let .contact(contact):
            if let point = contact.point, interaction.showContacts, contact.phase == .began {
                feedback.contact(at: point, atMs: loop.nowMs)
            }
        case let .redirect(redirect):
            // The room lives on another server of the fleet: go there (docs/PROTOCOL.md, A fleet of servers).
            if link.follow(redirect) {
                feedback.notice("room \(redirect.room) is on \(redirect.host):\(redirect.port): following", atMs: loop.nowMs)
            } else {
                feedback.failed("room \(redirect.room): not following a redirect to \(redirect.host):\(redirect.port) (\(ServerLink.maxRedirects) in a row already)")
            }
        case let .notice(notice):
            feedback.notice("\(notice.name.isEmpty ? "client \(notice.client)" : notice.name) \(notice.summary)", atMs: loop.nowMs)
        }
    }

    /// An error: ours (by id) stays in the message bar until the next command; a refused token changes
    /// the connection state.
    private func answered(error: ProtocolError) {
        let command = error.id.flatMap { pending.removeValue(forKey: $0) }
        if let id = error.id, id == pendingDragBegin { interaction.dragRejected() }
        if error.code == .unauthorized, command == nil || command?.typeName == "hello" {
            status.connection = .unauthorized
        }
        let what = command.map { $0.typeName + ": " } ?? ""
        switch error.code {
        case .forbidden where error.message.contains("plays a recording"):
            // No token helps in a room that plays a recording (docs/PROTOCOL.md, Replay).
            status.readOnly = "replay"
            feedback.failed("\(what)forbidden: this room plays a recording: watch it (read-only)")
        case .forbidden:
            status.readOnly = "admin token needed"
            feedback.failed("\(what)forbidden: this needs the admin token (start dynclient with --token ADMIN)")
        case .unauthorized:
            feedback.failed("unauthorized: this server needs a token (--token T, or :hello token=T)")
        default:
            feedback.failed("\(what)\(error.code.rawValue): \(error.message)")
        }
    }

    /// A success: a tap rings where it landed and marks the item it pushed; the rest says what it did.
    private func succeeded(_ command: ClientCommand, fields: [(String, JSONValue)]) {
        let body = fields.first { $0.0 == "body" }?.1.number.map { Int($0) }
        switch command {
        case let .tap(x, y, _, _):
            feedback.tapLanded(at: Point(x, y), pushed: body, atMs: loop.nowMs)
            feedback.succeeded("tap pushed #\(body.map(String.init) ?? "?")", atMs: loop.nowMs)
        case let .hello(_, token, _, _, _, _):
            if let token { link.setToken(token) }
            status.connection = .connected
            feedback.succeeded("hello: welcome in", atMs: loop.nowMs)
        case let .spawn(shape, _, _, _, _, _, _, _, _):
            // What you spawned is selected: `n` then `e` edits it.
            if let body { interaction.spawned(body, world: world) }
            feedback.succeeded("spawned \(shape.wireName) #\(body.map(String.init) ?? "?")", atMs: loop.nowMs)
        case let .scene(name): feedback.succeeded("loaded \(name)", atMs: loop.nowMs)
        case let .collision(mode): feedback.succeeded("collision mode \(mode.rawValue)", atMs: loop.nowMs)
        case .gravity:
            // The scene with the new gravity came before this ack.
            let now = world.scene.map { StatusLine.describe($0.gravity) } ?? "gravity changed"
            if gravityWasOff {
                feedback.succeeded("gravity was off: turned on, \(now) (:gravity off turns it off)", atMs: loop.nowMs)
            } else {
                feedback.succeeded("\(now): ok", atMs: loop.nowMs)
            }
        case let .remove(removed): feedback.succeeded("removed #\(removed)", atMs: loop.nowMs)
        case let .set(changed, _): feedback.succeeded("set #\(changed)", atMs: loop.nowMs)
        case let .field(kind, _):
            let field = fields.first { $0.0 == "field" }?.1.number.map { Int($0) }
            if let field { interaction.placedField(field) }
            feedback.succeeded("\(kind.rawValue) field #\(field.map(String.init) ?? "?")", atMs: loop.nowMs)
        case .pause: feedback.succeeded("world held (. steps, p resumes)", atMs: loop.nowMs)
        case .resume: feedback.succeeded("world resumed", atMs: loop.nowMs)
        case let .step(ticks): feedback.succeeded("stepped \(ticks) tick\(ticks == 1 ? "" : "s")", atMs: loop.nowMs)
        case let .subscribe(change) where change.contacts != nil:
            feedback.succeeded("contact flashes \(change.contacts == true ? "on" : "off")", atMs: loop.nowMs)
        case .anchor, .fieldUpdate, .velocity: break
        case .join: feedback.succeeded(RoomsText.joined(fields), atMs: loop.nowMs)
        case .rooms: feedback.succeeded(RoomsText.list(fields), atMs: loop.nowMs)
        case .hash: feedback.succeeded("tick \(fields.first { $0.0 == "tick" }?.1.number.map { String(Int($0)) } ?? "?") hash \(fields.first { $0.0 == "hash" }?.1.string ?? "?")", atMs: loop.nowMs)
        case .drag, .ping: break
        default: feedback.succeeded("\(command.typeName): ok", atMs: loop.nowMs)
        }
    }

    private func send(_ command: ClientCommand, id given: MessageID? = nil) {
        guard link.isConnected else {
            feedback.failed("not connected: \(command.typeName) not sent")
            return
        }
        var command = command
        if case let .hello(nil, token, version, subscribe, room, roomToken) = command {
            command = .hello(name: name, token: token, protocolVersion: version, subscribe: subscribe, room: room, roomToken: roomToken)
        }
        let id = given ?? MessageID.number(String(nextID))
        if given == nil { nextID += 1 }
        if case .drag(.begin, _, _, _) = command { pendingDragBegin = id }
        if case .gravity = command { gravityWasOff = world.scene.map { $0.gravity.magnitude == 0 } ?? false }
        if case let .join(room, _, roomToken) = command { link.joining(room, token: roomToken) }
        if case .drag = command {} else { feedback.commandSent() }
        pending[id] = command
        link.send(ClientMessage(id: id, command).encoded())
    }

    /// A `:` line: parsed with the selection and cursor as context; a mistake is shown and nothing is sent.
    private func run(line: String) {
        let context = ShortContext(selected: interaction.selected, cursor: interaction.cursorPoint(world: world),
                                   pingTime: Self.clockMs())
        do throws(ShortCommandError) {
            switch try ShortCommand.parse(line, context: context) {
            case let .command(message): send(message.command, id: message.id)
            case let .raw(bytes):
                guard link.isConnected else { return feedback.failed("not connected: line not sent") }
                feedback.commandSent()
                link.send(bytes)
            case .wait: feedback.failed("wait is for headless scripts")
            case .nothing: break
            }
        } catch {
            feedback.failed(error.message)
        }
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
            let actions = interaction.handle(event, world: world, viewport: viewport, poses: world.poses(),
                                             nowMs: gestureClock.time(of: event, loopMs: loop.nowMs))
            for action in actions {
                switch action {
                case let .send(command): send(command)
                case let .runLine(line): run(line: line)
                case let .notice(text): feedback.failed(text)
                case .suspend: suspend()
                case .quit:
                    finish(code: 0)
                    return
                }
            }
        }
    }

    // MARK: periodic work

    private func everySecond() {
        status.snapshotRate = snapshotsThisSecond
        snapshotsThisSecond = 0
        if link.isConnected { link.send(ClientMessage(.ping(t: .number(Self.clockMs()))).encoded()) }
    }

    /// Draws a frame. Frames come from the render timer (libuv restarts a repeating timer from the time it
    /// fired, so its frames are at least one interval apart); any other caller (start, resize) draws only
    /// when the last frame is a full interval old, else leaves it to the timer. Input never draws by itself:
    /// what it changed (the pointer, the drag line) is in the next tick's frame.
    private func render(fromTimer: Bool = false) {
        guard !finished, session.isActive else { return }
        loop.updateTime()
        let now = loop.nowMs
        if !fromTimer, let last = lastFrameMs, now &- last < Self.frameIntervalMs { return }
        lastFrameMs = now
        feedback.expire(atMs: now)
        world.advance(toMs: now)
        if let reconnect {
            status.connection = .reconnecting(inMs: reconnect.atMs > now ? reconnect.atMs - now : 0,
                                              attempt: reconnect.attempt, reason: reconnect.reason)
        }
        status.selection = interaction.selected.flatMap { world.bodiesByID[$0] }.map(StatusLine.describe)
        status.bufferMs = world.buffer.delayMs
        let options = RenderOptions(monochrome: colorMode == .none, banner: banner, feedback: feedback, nowMs: now,
                                    pageURL: HelpText.pageURL(host: link.address.host, httpPort: world.welcome?.httpPort,
                                                              room: status.room))
        let poses = dragEcho.poses(world.poses(), ownDrag: interaction.ownDrag, pointer: interaction.pointer, nowMs: now)
        let frame = SceneRenderer.render(world: world, poses: poses, interaction: interaction, status: status,
                                         options: options, columns: size.columns, rows: size.rows)
        let bytes = ScreenDiff.render(previous: previousFrame, next: frame, colorMode: colorMode)
        previousFrame = frame
        if !bytes.isEmpty, !FDWriter.writeAll(1, bytes) { finish(code: 1, message: "dynclient: cannot write to the terminal") }
    }

    /// What covers the world while it is not live.
    private var banner: [String]? {
        switch status.connection {
        case .connected, .connecting: return nil
        case .unauthorized:
            return ["unauthorized: this server needs a token", "restart with --token T, or type :hello token=T"]
        case let .reconnecting(inMs, attempt, reason):
            return ["disconnected", "\(reason) - reconnecting in \(StatusLine.format(Double(inMs) / 1000, decimals: 1)) s (attempt \(attempt))"]
        }
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
