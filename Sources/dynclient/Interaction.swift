import NetProtocol

/// What the interactive client should do in answer to one input event.
enum UIAction: Equatable, Sendable {
    case send(ClientCommand)
    /// A `:` line to parse (with the selection and cursor as context) and send.
    case runLine(String)
    case quit
    case suspend
    /// A note for the message bar (no server involved).
    case notice(String)
}

/// The client's own interaction state and the mapping from keys and mouse to commands. Pure: the caller
/// supplies the world, the viewport, the current poses and the time.
///
/// Guarantees: a left press and release in the same cell is one `tap` at that cell's world point; a left
/// press on an item followed by motion to another cell is `drag begin` (at the press point, naming the
/// item) then `drag move` for every new cell, and the release is `drag end` followed, when the pointer was
/// still moving, by a `velocity` fling with the pointer's recent velocity; a right press snaps the selected
/// item to that point; keys follow `HelpText`. At most one drag (mouse or keyboard) is in progress at a time
/// and every begun drag is ended by release, `d`, Escape or quit. While the `:` line is open every key edits
/// it (Enter runs it, Esc closes it) except Ctrl-C, which quits. The pointer and the grab point of this
/// client's drag are known here at once, before any server answer (`pointer`, `ownDrag`).
struct Interaction {
    private(set) var selected: Int?
    private(set) var cursor: Point?
    /// The help page shown: 0 none, 1 keys, 2 commands.
    private(set) var helpPage = 0
    var showHelp: Bool { helpPage != 0 }
    private(set) var keyboardDragging = false
    /// The `:` line, when open.
    private(set) var commandLine = CommandLineEditor()
    private(set) var commandLineOpen = false
    /// The item whose properties the `e` panel shows while the line is open.
    private(set) var editing: Int?
    /// Contact flashes on (`k`).
    private(set) var showContacts = false
    /// The mouse pointer in world points, from the latest mouse event.
    private(set) var pointer: Point?
    /// This client's drag: the item and the grab point in its frame, known from local input.
    private(set) var ownDrag: (body: Int, grab: Point)?
    private var track = PointerTrack()
    private var gesture: Gesture?
    /// The handle being moved by the mouse (its marker follows the pointer locally).
    private(set) var movingHandle: Handle?
    /// The field `f` placed last (its kind cycles on the next `f`) and the kind it has.
    private var placed: (field: Int?, kind: Int)?

    /// Something in the world that is not an item but can be moved with the mouse.
    enum Handle: Equatable, Sendable {
        /// An attachment's anchor (the `anchor` command).
        case anchor(Int)
        /// A field's position (a `field` update).
        case field(Int)
    }

    private struct Gesture {
        var startColumn: Int
        var startRow: Int
        var start: Point
        var body: Int?
        var lastColumn: Int
        var lastRow: Int
        var dragging = false
        var moved = false
        var handle: Handle?
    }

    /// The body a spawned box (`n`) gets: 60 x 60.
    static let spawnSize = 60.0
    /// The region radius of a field placed with `f`, in points.
    static let fieldRadius = 120.0
    /// Slower pointers release without a fling (points per second).
    static let flingThreshold = 30.0

    /// True while this client holds a drag it started.
    var isDragging: Bool { keyboardDragging || gesture?.dragging == true }

    /// The cursor, defaulting to the world's centre.
    func cursorPoint(world: WorldModel) -> Point {
        if let cursor { return cursor }
        let width = world.welcome?.worldWidth ?? 800
        let height = world.welcome?.worldHeight ?? 600
        return Point(width / 2, height / 2)
    }

    /// Contact flashes on from the start (`--contacts`: the subscription is already asked for).
    mutating func showContactsFromStart() { showContacts = true }

    /// The server refused our `drag begin` (no item there): forget the drag.
    mutating func dragRejected() {
        keyboardDragging = false
        gesture?.dragging = false
        gesture?.body = nil
        ownDrag = nil
    }

    /// Selection may point at an item that a new scene removed.
    mutating func sceneChanged(world: WorldModel) {
        if let selected, world.bodiesByID[selected] == nil { self.selected = nil }
        if let editing, world.bodiesByID[editing] == nil { self.editing = nil }
        if let drag = ownDrag, world.bodiesByID[drag.body] == nil { ownDrag = nil }
    }

    mutating func handle(_ event: InputEvent, world: WorldModel, viewport: Viewport?, poses: [Int: Pose],
                         nowMs: UInt64 = 0) -> [UIAction] {
        switch event {
        case let .key(key):
            if commandLineOpen { return editLine(key, world: world) }
            return handle(key, world: world, viewport: viewport, poses: poses)
        case let .mouse(mouse): return handle(mouse, world: world, viewport: viewport, poses: poses, nowMs: nowMs)
        }
    }

    // MARK: the : line

    /// Opens the `:` line, optionally with text already typed.
    mutating func openCommandLine(_ text: String = "") {
        commandLineOpen = true
        commandLine.reset(text: text)
    }

    private mutating func closeCommandLine() {
        commandLineOpen = false
        editing = nil
        commandLine.reset()
    }

    private mutating func editLine(_ key: Key, world: WorldModel) -> [UIAction] {
        switch key {
        case .control(3): return endDrag() + [.quit]
        case .escape: closeCommandLine()
        case .enter:
            let line = commandLine.submit()
            closeCommandLine()
            return line.trimmingWhitespace().isEmpty ? [] : [.runLine(line)]
        case .backspace: commandLine.backspace()
        case .up: commandLine.historyUp()
        case .down: commandLine.historyDown()
        case .tab: commandLine.complete(sceneNames: SceneCatalog.names)
        case let .character(character): commandLine.type(character)
        default: break
        }
        return []
    }

    // MARK: keys

    private mutating func handle(_ key: Key, world: WorldModel, viewport: Viewport?, poses: [Int: Pose]) -> [UIAction] {
        switch key {
        case .character("q"), .control(3): return endDrag() + [.quit]
        case .control(0x1A): return [.suspend]
        case .character("?"):
            helpPage = (helpPage + 1) % 3
            return []
        default: break
        }
        if showHelp {
            helpPage = 0
            return []
        }
        let point = cursorPoint(world: world)
        switch key {
        case .character(":"): openCommandLine()
        case .tab: select(step: 1, world: world)
        case .backTab: select(step: -1, world: world)
        case .up: return moveCursor(0, -1, world: world, viewport: viewport)
        case .down: return moveCursor(0, 1, world: world, viewport: viewport)
        case .left: return moveCursor(-1, 0, world: world, viewport: viewport)
        case .right: return moveCursor(1, 0, world: world, viewport: viewport)
        case .character("K"): return moveCursor(0, -5, world: world, viewport: viewport)
        case .character("J"): return moveCursor(0, 5, world: world, viewport: viewport)
        case .character("H"): return moveCursor(-5, 0, world: world, viewport: viewport)
        case .character("L"): return moveCursor(5, 0, world: world, viewport: viewport)
        case .enter, .character("t"):
            return [.send(.tap(x: point.x, y: point.y, body: nil, mode: .continuous))]
        case .character("d"):
            if keyboardDragging { return endDrag() }
            guard gesture?.dragging != true else { return [] }
            keyboardDragging = true
            if let body = world.body(at: point, poses: poses), let pose = poses[body] {
                ownDrag = (body, pose.local(point))
            }
            return [.send(.drag(phase: .begin, x: point.x, y: point.y, body: nil))]
        case .escape:
            return endDrag()
        case .character("s"):
            guard let selected else { return [.notice("select an item first (Tab or click)")] }
            return [.send(.snap(body: selected, x: point.x, y: point.y, damping: nil))]
        case .character("g"):
            guard let (angle, magnitude) = world.gravityAngleAndMagnitude else { return [] }
            return [.send(.gravity(.angle(Self.quarterTurn(angle), magnitude: magnitude == 0 ? 1 : magnitude)))]
        case .character("r"):
            guard let name = world.scene?.name else { return [] }
            return [.send(.scene(name: name))]
        case .character("c"):
            return [.send(.collision(mode: Self.nextCollisionMode(after: world.scene?.collisionMode ?? .everything)))]
        case .character("n"):
            return [.send(.spawn(shape: .rect, width: Self.spawnSize, height: Self.spawnSize, x: point.x, y: point.y,
                                 angle: nil, vx: nil, vy: nil, patch: PropertyPatch()))]
        case .character("x"):
            guard let selected else { return [.notice("select an item first (Tab or click)")] }
            return [.send(.remove(body: selected))]
        case .character("e"):
            guard let selected else { return [.notice("select an item first (Tab or click)")] }
            editing = selected
            openCommandLine("set \(selected) ")
        case .character("p"):
            return [.send(world.latest?.held == true ? .resume : .pause)]
        case .character("."):
            return [.send(.step(ticks: 1))]
        case .character("f"):
            let kinds = FieldKindName.allCases
            var actions: [UIAction] = []
            var next = 0
            if let last = placed {
                next = (last.kind + 1) % kinds.count
                if let field = last.field, world.scene?.fields.contains(where: { $0.id == field }) == true {
                    actions.append(.send(.unfield(field: field)))
                }
            }
            placed = (nil, next)
            var parameters = FieldParameters(x: point.x, y: point.y, region: FieldRegionSpec(.radius(Self.fieldRadius)))
            if kinds[next] == .linearGravity || kinds[next] == .velocity { parameters.direction = DirectionVector(1, 0) }
            return actions + [.send(.field(kind: kinds[next], parameters))]
        case .character("k"):
            showContacts.toggle()
            return [.send(.subscribe(SubscriptionChange(contacts: showContacts)))]
        case let .character(digit) where digit.isNumber:
            guard let name = SceneCatalog.name(forDigit: digit) else { return [] }
            return [.send(.scene(name: name))]
        default: break
        }
        return []
    }

    /// items -> boundaries -> everything -> items.
    static func nextCollisionMode(after mode: CollisionModeName) -> CollisionModeName {
        switch mode {
        case .items: return .boundaries
        case .boundaries: return .everything
        case .everything: return .items
        }
    }

    /// The angle a quarter turn clockwise on screen, kept within (-pi, pi].
    static func quarterTurn(_ angle: Double) -> Double {
        let turned = angle + Double.pi / 2
        return turned > Double.pi ? turned - 2 * Double.pi : turned
    }

    private mutating func select(step: Int, world: WorldModel) {
        let ids = world.orderedBodyIDs
        guard !ids.isEmpty else {
            selected = nil
            return
        }
        guard let selected, let index = ids.firstIndex(of: selected) else {
            self.selected = step > 0 ? ids.first : ids.last
            return
        }
        self.selected = ids[(index + step + ids.count) % ids.count]
    }

    private mutating func moveCursor(_ columns: Int, _ rows: Int, world: WorldModel, viewport: Viewport?) -> [UIAction] {
        let stepX = viewport?.pointsPerCellX ?? 10
        let stepY = viewport?.pointsPerCellY ?? 10
        let width = world.welcome?.worldWidth ?? 800
        let height = world.welcome?.worldHeight ?? 600
        let from = cursorPoint(world: world)
        let to = Point(min(max(from.x + Double(columns) * stepX, 0), width),
                       min(max(from.y + Double(rows) * stepY, 0), height))
        cursor = to
        if keyboardDragging { pointer = to }
        return keyboardDragging ? [.send(.drag(phase: .move, x: to.x, y: to.y, body: nil))] : []
    }

    private mutating func endDrag() -> [UIAction] {
        let wasDragging = isDragging
        keyboardDragging = false
        gesture?.dragging = false
        ownDrag = nil
        return wasDragging ? [.send(.drag(phase: .end, x: nil, y: nil, body: nil))] : []
    }

    /// The fling: the item takes the pointer's velocity (`velocity` with `add: false`).
    static func fling(body: Int, vx: Double, vy: Double) -> ClientCommand? {
        .velocity(body: body, vx: vx, vy: vy, av: nil, add: false)
    }

    /// The server created the field `f` asked for.
    /// The server spawned item `id` for this client: it is the selection now (`n` then `e` edits it).
    mutating func spawned(_ id: Int, world: WorldModel) {
        if world.bodiesByID[id] != nil { selected = id }
    }

    mutating func placedField(_ id: Int) {
        if placed != nil { placed?.field = id }
    }

    /// The handle drawn at a cell: an attachment's anchor marker or a field's glyph, within one cell.
    static func handle(atColumn column: Int, row: Int, world: WorldModel, viewport: Viewport) -> Handle? {
        func near(_ point: Point) -> Bool {
            let (c, r) = viewport.cell(for: point)
            return abs(c - column) <= 1 && abs(r - row) <= 0
        }
        for attachment in world.scene?.attachments ?? [] {
            if let id = attachment.id, let anchor = attachment.anchor, near(anchor) { return .anchor(id) }
        }
        for field in world.scene?.fields ?? [] where near(Point(field.x, field.y)) { return .field(field.id) }
        return nil
    }

    // MARK: mouse

    private mutating func handle(_ mouse: MouseEvent, world: WorldModel, viewport: Viewport?, poses: [Int: Pose],
                                 nowMs: UInt64) -> [UIAction] {
        if showHelp, mouse.kind == .press {
            helpPage = 0
            return []
        }
        guard let viewport else { return [] }
        let point = viewport.worldPoint(column: mouse.column, row: mouse.row)
        switch (mouse.kind, mouse.button) {
        case (.press, .left):
            guard viewport.contains(column: mouse.column, row: mouse.row) else { return [] }
            pointer = point
            track.reset()
            track.add(point, atMs: nowMs)
            let leftover = gesture?.dragging == true ? endDrag() : []
            if let handle = Self.handle(atColumn: mouse.column, row: mouse.row, world: world, viewport: viewport) {
                gesture = Gesture(startColumn: mouse.column, startRow: mouse.row, start: point, body: nil,
                                  lastColumn: mouse.column, lastRow: mouse.row, handle: handle)
                return leftover
            }
            let body = world.body(at: point, poses: poses)
            if let body { selected = body }
            gesture = Gesture(startColumn: mouse.column, startRow: mouse.row, start: point, body: body,
                              lastColumn: mouse.column, lastRow: mouse.row)
            if let body, let pose = poses[body] { ownDrag = (body, pose.local(point)) }
            return leftover
        case (.motion, .left):
            pointer = point
            return mouseMoved(to: point, column: mouse.column, row: mouse.row, nowMs: nowMs)
        case (.release, _):
            guard let finished = gesture else { return [] }
            gesture = nil
            if finished.handle != nil {
                movingHandle = nil
                return []
            }
            if finished.dragging {
                ownDrag = nil
                var actions: [UIAction] = [.send(.drag(phase: .end, x: nil, y: nil, body: nil))]
                let (vx, vy) = track.velocity(atMs: nowMs)
                if let body = finished.body, (vx * vx + vy * vy).squareRoot() >= Self.flingThreshold,
                   let fling = Self.fling(body: body, vx: vx, vy: vy) {
                    actions.append(.send(fling))
                }
                return actions
            }
            ownDrag = nil
            if !finished.moved, mouse.button == .left || mouse.button == .none {
                return [.send(.tap(x: finished.start.x, y: finished.start.y, body: nil, mode: .continuous))]
            }
            return []
        case (.press, .right):
            guard viewport.contains(column: mouse.column, row: mouse.row) else { return [] }
            guard let selected else { return [.notice("select an item first (Tab or click)")] }
            return [.send(.snap(body: selected, x: point.x, y: point.y, damping: nil))]
        default:
            return []
        }
    }

    private mutating func mouseMoved(to point: Point, column: Int, row: Int, nowMs: UInt64) -> [UIAction] {
        guard var current = gesture, column != current.lastColumn || row != current.lastRow else { return [] }
        current.lastColumn = column
        current.lastRow = row
        current.moved = true
        track.add(point, atMs: nowMs)
        var actions: [UIAction] = []
        if let handle = current.handle {
            gesture = current
            movingHandle = handle
            switch handle {
            case let .anchor(id): return [.send(.anchor(attachment: id, x: point.x, y: point.y))]
            case let .field(id): return [.send(.fieldUpdate(field: id, FieldParameters(x: point.x, y: point.y)))]
            }
        }
        if !current.dragging, let body = current.body, !keyboardDragging {
            current.dragging = true
            actions.append(.send(.drag(phase: .begin, x: current.start.x, y: current.start.y, body: body)))
        }
        if current.dragging { actions.append(.send(.drag(phase: .move, x: point.x, y: point.y, body: nil))) }
        gesture = current
        return actions
    }
}
