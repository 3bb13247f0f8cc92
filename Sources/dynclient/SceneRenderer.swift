import NetProtocol

/// Draws one full frame: the world in braille, drags with their names, the keyboard cursor, the status line
/// at the bottom and, on request, the help overlay. Pure: same inputs, same frame.
///
/// Guarantees: the world area is every row but the last, laid out by `Viewport` (aspect-correct, centred);
/// items are filled in their scene colour, the selected one outlined in white; the world bounds and named
/// boundaries are drawn; every drag is a line from its anchor to its grab point (the item's pose applied
/// to the drag's offset) labelled with the dragging client's name; a terminal smaller than 20 x 5 shows
/// only a note that it is too small.
enum SceneRenderer {
    static let minimumColumns = 20
    static let minimumRows = 5
    static let boundaryColor = RGB(0x80, 0x80, 0x80)
    static let attachmentColor = RGB(0x60, 0x60, 0x60)
    static let selectionColor = RGB(0xFF, 0xFF, 0xFF)
    static let dragColor = RGB(0xFF, 0xD7, 0x5F)
    static let fallbackBodyColor = RGB(0xA0, 0xA0, 0xA0)
    static let statusStyle = CellStyle(reverse: true)

    /// The viewport a terminal of this size gives the world, or nil when the terminal is too small.
    static func viewport(world: WorldModel, columns: Int, rows: Int) -> Viewport? {
        guard columns >= minimumColumns, rows >= minimumRows else { return nil }
        return Viewport(worldWidth: world.welcome?.worldWidth ?? 800, worldHeight: world.welcome?.worldHeight ?? 600,
                        columns: columns, rows: rows - 1)
    }

    static func render(world: WorldModel, poses: [Int: Pose], interaction: Interaction, status: StatusInfo,
                       columns: Int, rows: Int) -> ScreenFrame {
        var frame = ScreenFrame(columns: columns, rows: rows)
        guard let viewport = viewport(world: world, columns: columns, rows: rows) else {
            frame.put("terminal too small", column: 0, row: 0)
            return frame
        }
        if world.welcome != nil {
            drawWorld(world: world, poses: poses, selected: interaction.selected, viewport: viewport, into: &frame)
            drawCursor(interaction.cursorPoint(world: world), viewport: viewport, into: &frame)
        }
        frame.put(StatusLine.text(status, width: columns), column: 0, row: rows - 1, style: statusStyle)
        if interaction.showHelp { drawHelp(into: &frame) }
        return frame
    }

    private static func drawWorld(world: WorldModel, poses: [Int: Pose], selected: Int?, viewport: Viewport,
                                  into frame: inout ScreenFrame) {
        var canvas = BrailleCanvas(columns: viewport.columns, rows: viewport.rows)
        drawBounds(viewport: viewport, canvas: &canvas)
        for boundary in world.scene?.boundaries ?? [] {
            polyline(boundary.points, closed: boundary.closed, color: boundaryColor, viewport: viewport, canvas: &canvas)
        }
        for attachment in world.scene?.attachments ?? [] {
            guard let pose = poses[attachment.body] else { continue }
            let start = attachment.anchor ?? attachment.toBody.flatMap { other in
                poses[other].map { $0.apply(attachment.toOffset ?? Point(0, 0)) }
            }
            guard let start else { continue }
            canvas.line(from: viewport.dot(for: start), to: viewport.dot(for: pose.apply(attachment.offset)), color: attachmentColor)
        }
        for snap in world.scene?.snaps ?? [] {
            let (x, y) = viewport.dot(for: snap.point)
            canvas.line(from: (x - 2, y), to: (x + 2, y), color: attachmentColor)
            canvas.line(from: (x, y - 2), to: (x, y + 2), color: attachmentColor)
        }
        for state in world.latest?.bodies ?? [] {
            guard let info = world.bodiesByID[state.id], let pose = poses[state.id] else { continue }
            let color = RGB(hex: info.color) ?? fallbackBodyColor
            fill(BodyGeometry.outline(of: info, at: pose), color: color, viewport: viewport, canvas: &canvas)
        }
        if let selected, let info = world.bodiesByID[selected], let pose = poses[selected] {
            outline(BodyGeometry.outline(of: info, at: pose), viewport: viewport, canvas: &canvas)
        }
        var labels: [(String, Point)] = []
        for drag in world.latest?.drags ?? [] {
            let anchor = Point(drag.x, drag.y)
            if let pose = poses[drag.body] {
                canvas.line(from: viewport.dot(for: anchor), to: viewport.dot(for: pose.apply(drag.offset)), color: dragColor)
            }
            labels.append((drag.name.isEmpty ? "client \(drag.client)" : drag.name, anchor))
        }
        canvas.draw(into: &frame, originColumn: viewport.originColumn, originRow: viewport.originRow)
        for (name, anchor) in labels {
            let (column, row) = viewport.cell(for: anchor)
            let clampedRow = min(max(row, viewport.originRow), viewport.originRow + viewport.rows - 1)
            frame.put(String(name.prefix(24)), column: min(max(column + 1, 0), frame.columns - 1), row: clampedRow,
                      style: CellStyle(foreground: dragColor, bold: true))
        }
    }

    /// The world's reference bounds on the outermost dots whose centres lie inside the world (the far
    /// edges map exactly onto the canvas edge, which is outside the last dot).
    private static func drawBounds(viewport: Viewport, canvas: inout BrailleCanvas) {
        let topLeft = viewport.dot(for: Point(0, 0))
        let bottomRight = viewport.dot(for: Point(viewport.worldWidth, viewport.worldHeight))
        let left = (topLeft.x - 0.5).rounded(.up)
        let top = (topLeft.y - 0.5).rounded(.up)
        let right = (bottomRight.x - 0.5).rounded(.down)
        let bottom = (bottomRight.y - 0.5).rounded(.down)
        let corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
        for index in corners.indices {
            let (x0, y0) = corners[index]
            let (x1, y1) = corners[(index + 1) % corners.count]
            canvas.line(from: (x0 + 0.5, y0 + 0.5), to: (x1 + 0.5, y1 + 0.5), color: boundaryColor)
        }
    }

    private static func fill(_ outline: BodyOutline, color: RGB, viewport: Viewport, canvas: inout BrailleCanvas) {
        switch outline {
        case let .circle(center, radius) where viewport.dotsPerPointX == viewport.dotsPerPointY:
            let (x, y) = viewport.dot(for: center)
            canvas.fillCircle(centerX: x, centerY: y, radius: radius * viewport.dotsPerPointX, color: color)
        case .circle:
            canvas.fillConvexPolygon(polygon(outline).map(viewport.dot(for:)), color: color)
        case let .polygon(points):
            canvas.fillConvexPolygon(points.map(viewport.dot(for:)), color: color)
        }
    }

    private static func outline(_ outline: BodyOutline, viewport: Viewport, canvas: inout BrailleCanvas) {
        polyline(polygon(outline), closed: true, color: selectionColor, viewport: viewport, canvas: &canvas)
    }

    /// The outline as a polygon (circles as a 32-gon).
    private static func polygon(_ outline: BodyOutline) -> [Point] {
        switch outline {
        case let .polygon(points): return points
        case let .circle(center, radius):
            return BodyGeometry.circlePolygon(center: center, radius: radius)
        }
    }

    private static func polyline(_ points: [Point], closed: Bool, color: RGB, viewport: Viewport,
                                 canvas: inout BrailleCanvas) {
        guard points.count >= 2 else { return }
        let dots = points.map(viewport.dot(for:))
        for index in 0..<(dots.count - 1) { canvas.line(from: dots[index], to: dots[index + 1], color: color) }
        if closed { canvas.line(from: dots[dots.count - 1], to: dots[0], color: color) }
    }

    private static func drawCursor(_ point: Point, viewport: Viewport, into frame: inout ScreenFrame) {
        let (column, row) = viewport.cell(for: point)
        guard viewport.contains(column: column, row: row) else { return }
        frame[column, row] = Cell(scalar: "+", style: CellStyle(bold: true, reverse: true))
    }

    private static func drawHelp(into frame: inout ScreenFrame) {
        let width = (HelpOverlay.lines.map(\.count).max() ?? 0) + 4
        let height = HelpOverlay.lines.count + 2
        let left = max(0, (frame.columns - width) / 2)
        let top = max(0, (frame.rows - 1 - height) / 2)
        let style = CellStyle(reverse: true)
        for row in top..<min(top + height, frame.rows - 1) {
            frame.fill(row: row, from: left, to: left + width, style: style)
        }
        for (index, line) in HelpOverlay.lines.enumerated() where top + 1 + index < frame.rows - 1 {
            frame.put(line, column: left + 2, row: top + 1 + index, style: index == 0 ? CellStyle(bold: true, reverse: true) : style)
        }
    }
}
