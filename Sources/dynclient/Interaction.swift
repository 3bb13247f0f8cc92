import NetProtocol

/// What the interactive client should do in answer to one input event.
enum UIAction: Equatable, Sendable {
    case send(ClientCommand)
    case quit
    case suspend
    /// A note for the status line (no server involved).
    case notice(String)
}

/// The client's own interaction state and the mapping from keys and mouse to commands. Pure: the caller
/// supplies the world, the viewport and the current poses.
///
/// Guarantees: a left press and release in the same cell is one `tap` at that cell's world point; a left
/// press on an item followed by motion to another cell is `drag begin` (at the press point, naming the
/// item) then `drag move` for every new cell, and the release is `drag end`; a right press snaps the
/// selected item to that point; keys follow the help text in `HelpOverlay`. At most one drag (mouse or
/// keyboard) is in progress at a time and every begun drag is ended by release, `d`, Escape or quit.
struct Interaction {
    private(set) var selected: Int?
    private(set) var cursor: Point?
    private(set) var showHelp = false
    private(set) var keyboardDragging = false
    private var gesture: Gesture?

    private struct Gesture {
        var startColumn: Int
        var startRow: Int
        var start: Point
        var body: Int?
        var lastColumn: Int
        var lastRow: Int
        var dragging = false
        var moved = false
    }

    /// True while this client holds a drag it started.
    var isDragging: Bool { keyboardDragging || gesture?.dragging == true }

    /// The cursor, defaulting to the world's centre.
    func cursorPoint(world: WorldModel) -> Point {
        if let cursor { return cursor }
        let width = world.welcome?.worldWidth ?? 800
        let height = world.welcome?.worldHeight ?? 600
        return Point(width / 2, height / 2)
    }

    /// The server refused our `drag begin` (no item there): forget the drag.
    mutating func dragRejected() {
        keyboardDragging = false
        gesture?.dragging = false
        gesture?.body = nil
    }

    /// Selection may point at an item that a new scene removed.
    mutating func sceneChanged(world: WorldModel) {
        if let selected, world.bodiesByID[selected] == nil { self.selected = nil }
    }

    mutating func handle(_ event: InputEvent, world: WorldModel, viewport: Viewport?, poses: [Int: Pose]) -> [UIAction] {
        switch event {
        case let .key(key): return handle(key, world: world, viewport: viewport)
        case let .mouse(mouse): return handle(mouse, world: world, viewport: viewport, poses: poses)
        }
    }

    // MARK: keys

    private mutating func handle(_ key: Key, world: WorldModel, viewport: Viewport?) -> [UIAction] {
        switch key {
        case .character("q"), .control(3): return endDrag() + [.quit]
        case .control(0x1A): return [.suspend]
        case .character("?"):
            showHelp.toggle()
            return []
        default: break
        }
        if showHelp {
            showHelp = false
            return []
        }
        let point = cursorPoint(world: world)
        switch key {
        case .tab: select(step: 1, world: world)
        case .backTab: select(step: -1, world: world)
        case .up, .character("k"): return moveCursor(0, -1, world: world, viewport: viewport)
        case .down, .character("j"): return moveCursor(0, 1, world: world, viewport: viewport)
        case .left, .character("h"): return moveCursor(-1, 0, world: world, viewport: viewport)
        case .right, .character("l"): return moveCursor(1, 0, world: world, viewport: viewport)
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
        default: break
        }
        return []
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
        return keyboardDragging ? [.send(.drag(phase: .move, x: to.x, y: to.y, body: nil))] : []
    }

    private mutating func endDrag() -> [UIAction] {
        let wasDragging = isDragging
        keyboardDragging = false
        gesture?.dragging = false
        return wasDragging ? [.send(.drag(phase: .end, x: nil, y: nil, body: nil))] : []
    }

    // MARK: mouse

    private mutating func handle(_ mouse: MouseEvent, world: WorldModel, viewport: Viewport?, poses: [Int: Pose]) -> [UIAction] {
        if showHelp, mouse.kind == .press {
            showHelp = false
            return []
        }
        guard let viewport else { return [] }
        let point = viewport.worldPoint(column: mouse.column, row: mouse.row)
        switch (mouse.kind, mouse.button) {
        case (.press, .left):
            guard viewport.contains(column: mouse.column, row: mouse.row) else { return [] }
            let body = world.body(at: point, poses: poses)
            if let body { selected = body }
            let leftover = gesture?.dragging == true ? endDrag() : []
            gesture = Gesture(startColumn: mouse.column, startRow: mouse.row, start: point, body: body,
                              lastColumn: mouse.column, lastRow: mouse.row)
            return leftover
        case (.motion, .left):
            return mouseMoved(to: point, column: mouse.column, row: mouse.row)
        case (.release, _):
            guard let finished = gesture else { return [] }
            gesture = nil
            if finished.dragging { return [.send(.drag(phase: .end, x: nil, y: nil, body: nil))] }
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

    private mutating func mouseMoved(to point: Point, column: Int, row: Int) -> [UIAction] {
        guard var current = gesture, column != current.lastColumn || row != current.lastRow else { return [] }
        current.lastColumn = column
        current.lastRow = row
        current.moved = true
        var actions: [UIAction] = []
        if !current.dragging, let body = current.body, !keyboardDragging {
            current.dragging = true
            actions.append(.send(.drag(phase: .begin, x: current.start.x, y: current.start.y, body: body)))
        }
        if current.dragging { actions.append(.send(.drag(phase: .move, x: point.x, y: point.y, body: nil))) }
        gesture = current
        return actions
    }
}
