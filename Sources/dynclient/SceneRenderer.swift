import NetProtocol

/// How a frame is to be drawn beyond the world itself.
struct RenderOptions: Sendable {
    /// No colour (NO_COLOR, TERM=dumb): nothing may depend on colour alone.
    var monochrome = false
    /// Shown centred over a dimmed world (the server is away, or will not let us in); nil when connected.
    var banner: [String]?
    var feedback = Feedback()
    /// Loop time, for the blinking text cursor of the `:` line.
    var nowMs: UInt64 = 0
    /// The browser page of the same world, for the help overlay.
    var pageURL: String?
}

/// Draws one full frame: the world in braille, drags with their names, the keyboard cursor, the message
/// bar (the `:` line, the last command's answer, or the key hints) and the status line at the bottom, and,
/// on request, the help overlay. Pure: same inputs, same frame.
///
/// Guarantees: the world area is `ScreenLayout.worldRows`, laid out by `Viewport` (aspect-correct,
/// centred); items are filled in their scene colour, the selected one outlined in white; without colour,
/// items are outlines (anchored ones filled) and the selection is filled and in reverse video, so it shows
/// without colour; this client's own drag is drawn from the local pointer (no round trip), other clients'
/// drags from the snapshot, labelled with their names; a tap's ring and the item it pushed are marked while
/// `feedback` has them; gravity, the collision mode, the scene's caption and other people's notices have
/// their own rows between the world and the message bar (`ScreenLayout`), never over the world; with a
/// banner the world is dimmed and the banner centred on it; a terminal smaller than 20 x 6 shows only a note that it is too small.
enum SceneRenderer {
    static let minimumColumns = 20
    static let minimumRows = 6
    static let boundaryColor = RGB(0x80, 0x80, 0x80)
    static let attachmentColor = RGB(0x60, 0x60, 0x60)
    static let selectionColor = RGB(0xFF, 0xFF, 0xFF)
    static let dragColor = RGB(0xFF, 0xD7, 0x5F)
    static let ringColor = RGB(0x5F, 0xFF, 0xFF)
    static let highlightColor = RGB(0xFF, 0xFF, 0x5F)
    static let flashColor = RGB(0xFF, 0x87, 0x00)
    static let fieldColor = RGB(0xAF, 0x87, 0xFF)
    static let fallbackBodyColor = RGB(0xA0, 0xA0, 0xA0)
    static let statusStyle = CellStyle(reverse: true)
    /// Radius of the tap ring, in world points.
    static let ringRadius = 18.0

    /// The viewport a terminal of this size gives the world, or nil when the terminal is too small.
    static func viewport(world: WorldModel, columns: Int, rows: Int) -> Viewport? {
        guard columns >= minimumColumns, rows >= minimumRows else { return nil }
        return Viewport(worldWidth: world.welcome?.worldWidth ?? 800, worldHeight: world.welcome?.worldHeight ?? 600,
                        columns: columns, rows: ScreenLayout(rows: rows).worldRows)
    }

    static func render(world: WorldModel, poses: [Int: Pose], interaction: Interaction, status: StatusInfo,
                       options: RenderOptions = RenderOptions(), columns: Int, rows: Int) -> ScreenFrame {
        var frame = ScreenFrame(columns: columns, rows: rows)
        guard let viewport = viewport(world: world, columns: columns, rows: rows) else {
            frame.put("terminal too small", column: 0, row: 0)
            return frame
        }
        if world.welcome != nil {
            drawWorld(world: world, poses: poses, interaction: interaction, options: options, viewport: viewport, into: &frame)
            if options.banner == nil { drawCursor(interaction.cursorPoint(world: world), viewport: viewport, into: &frame) }
        }
        let layout = ScreenLayout(rows: rows)
        if let banner = options.banner {
            dim(rows: 0..<layout.worldRows, of: &frame)
            drawBanner(banner, rows: layout.worldRows, into: &frame)
        }
        // Under the help overlay the info rows would show at its edges; the help has the caption itself.
        if !interaction.showHelp {
            drawInfoRows(scene: world.scene, feedback: options.feedback, layout: layout, into: &frame)
        }
        drawOverlays(world: world, interaction: interaction, above: layout.infoTop, into: &frame)
        MessageBar.draw(interaction: interaction, feedback: options.feedback, nowMs: options.nowMs, row: layout.messageRow, into: &frame)
        frame.put(StatusLine.text(status, width: columns), column: 0, row: layout.statusRow, style: statusStyle)
        if interaction.showHelp {
            drawHelp(lines: HelpText.page(interaction.helpPage, columns: frame.columns, caption: world.scene?.caption,
                                          pageURL: options.pageURL), into: &frame)
        }
        return frame
    }

    private static func drawWorld(world: WorldModel, poses: [Int: Pose], interaction: Interaction, options: RenderOptions,
                                  viewport: Viewport, into frame: inout ScreenFrame) {
        var canvas = BrailleCanvas(columns: viewport.columns, rows: viewport.rows)
        let selected = interaction.selected
        drawBounds(viewport: viewport, canvas: &canvas)
        for boundary in world.scene?.boundaries ?? [] {
            polyline(boundary.points, closed: boundary.closed, color: boundaryColor, viewport: viewport, canvas: &canvas)
        }
        var markers: [(Unicode.Scalar, Point)] = []
        for attachment in world.scene?.attachments ?? [] {
            guard let pose = poses[attachment.body] else { continue }
            let anchor = handlePosition(.anchor(attachment.id ?? -1), interaction: interaction) ?? attachment.anchor
            if let anchor, attachment.id != nil { markers.append(("o", anchor)) }
            let start = anchor ?? attachment.toBody.flatMap { other in
                poses[other].map { $0.apply(attachment.toOffset ?? Point(0, 0)) }
            }
            guard let start else { continue }
            canvas.line(from: viewport.dot(for: start), to: viewport.dot(for: pose.apply(attachment.offset)), color: attachmentColor)
        }
        for field in world.scene?.fields ?? [] {
            let at = handlePosition(.field(field.id), interaction: interaction) ?? Point(field.x, field.y)
            switch field.region.shape {
            case let .radius(radius):
                polyline(BodyGeometry.circlePolygon(center: at, radius: radius), closed: true, color: fieldColor,
                         viewport: viewport, canvas: &canvas)
            case let .rect(width, height):
                let (w, h) = (width / 2, height / 2)
                polyline([Point(at.x - w, at.y - h), Point(at.x + w, at.y - h), Point(at.x + w, at.y + h), Point(at.x - w, at.y + h)],
                         closed: true, color: fieldColor, viewport: viewport, canvas: &canvas)
            case .infinite: break
            }
            markers.append((fieldGlyph(field.kind), at))
        }
        for snap in world.scene?.snaps ?? [] {
            let (x, y) = viewport.dot(for: snap.point)
            canvas.line(from: (x - 2, y), to: (x + 2, y), color: attachmentColor)
            canvas.line(from: (x, y - 2), to: (x, y + 2), color: attachmentColor)
        }
        for state in world.latest?.bodies ?? [] {
            guard let info = world.bodiesByID[state.id], let pose = poses[state.id] else { continue }
            let color = RGB(hex: info.color) ?? fallbackBodyColor
            let shape = BodyGeometry.outline(of: info, at: pose)
            // Without colour, overlapping items stay apart as outlines; anchored ones (and the selection) are solid.
            if options.monochrome, !info.anchored, state.id != selected {
                outline(shape, color: color, viewport: viewport, canvas: &canvas)
            } else {
                fill(shape, color: color, viewport: viewport, canvas: &canvas)
            }
        }
        if let selected, let info = world.bodiesByID[selected], let pose = poses[selected], !options.monochrome {
            outline(BodyGeometry.outline(of: info, at: pose), color: selectionColor, viewport: viewport, canvas: &canvas)
        }
        if let highlight = options.feedback.highlight, let info = world.bodiesByID[highlight.body], let pose = poses[highlight.body] {
            let shape = BodyGeometry.outline(of: info, at: pose)
            if options.monochrome { fill(shape, color: highlightColor, viewport: viewport, canvas: &canvas) }
            outline(shape, color: highlightColor, viewport: viewport, canvas: &canvas)
        }
        if let ring = options.feedback.ring {
            polyline(BodyGeometry.circlePolygon(center: ring.point, radius: ringRadius), closed: true, color: ringColor,
                     viewport: viewport, canvas: &canvas)
        }
        var labels: [(String, Point)] = []
        let me = world.welcome?.client
        for drag in world.latest?.drags ?? [] where drag.client != me || interaction.ownDrag == nil {
            let anchor = Point(drag.x, drag.y)
            if let pose = poses[drag.body] {
                canvas.line(from: viewport.dot(for: anchor), to: viewport.dot(for: pose.apply(drag.offset)), color: dragColor)
            }
            labels.append((drag.name.isEmpty ? "client \(drag.client)" : drag.name, anchor))
        }
        // Our own drag, from local input: the line to the grab point follows the pointer on the next frame.
        if let own = interaction.ownDrag, let pointer = interaction.pointer, let pose = poses[own.body] {
            let grab = pose.apply(own.grab)
            canvas.line(from: viewport.dot(for: pointer), to: viewport.dot(for: grab), color: dragColor)
            let (gx, gy) = viewport.dot(for: grab)
            canvas.line(from: (gx - 1, gy - 1), to: (gx + 1, gy + 1), color: dragColor)
            canvas.line(from: (gx - 1, gy + 1), to: (gx + 1, gy - 1), color: dragColor)
        }
        for flash in options.feedback.flashes {
            let (x, y) = viewport.dot(for: flash.point)
            canvas.fillCircle(centerX: x, centerY: y, radius: 1.5, color: flashColor)
        }
        canvas.draw(into: &frame, originColumn: viewport.originColumn, originRow: viewport.originRow)
        if options.monochrome, let selected, let info = world.bodiesByID[selected], let pose = poses[selected] {
            reverseCells(covering: info, at: pose, viewport: viewport, into: &frame)
        }
        for (glyph, point) in markers {
            let (column, row) = viewport.cell(for: point)
            guard viewport.contains(column: column, row: row) else { continue }
            frame[column, row] = Cell(scalar: glyph, style: CellStyle(foreground: fieldColor, bold: true, reverse: true))
        }
        for (name, anchor) in labels {
            let (column, row) = viewport.cell(for: anchor)
            let clampedRow = min(max(row, viewport.originRow), viewport.originRow + viewport.rows - 1)
            frame.put(String(name.prefix(24)), column: min(max(column + 1, 0), frame.columns - 1), row: clampedRow,
                      style: CellStyle(foreground: dragColor, bold: true))
        }
    }

    /// Where a handle is drawn while this client moves it: at the pointer, before the server answers.
    private static func handlePosition(_ handle: Interaction.Handle, interaction: Interaction) -> Point? {
        interaction.movingHandle == handle ? interaction.pointer : nil
    }

    /// One letter per field kind (ASCII, so that every terminal shows it).
    static func fieldGlyph(_ kind: FieldKindName) -> Unicode.Scalar {
        switch kind {
        case .linearGravity: return "G"
        case .radialGravity: return "R"
        case .spring: return "S"
        case .drag: return "D"
        case .velocity: return "V"
        case .vortex: return "@"
        case .noise: return "N"
        case .turbulence: return "T"
        case .electric: return "E"
        case .magnetic: return "M"
        }
    }

    /// Reverse video on every cell whose centre lies inside the item (the selection without colour).
    private static func reverseCells(covering info: BodyInfo, at pose: Pose, viewport: Viewport, into frame: inout ScreenFrame) {
        let reach = max(info.width, info.height)
        let (c0, r0) = viewport.cell(for: Point(pose.x - reach, pose.y - reach))
        let (c1, r1) = viewport.cell(for: Point(pose.x + reach, pose.y + reach))
        var marked = 0
        for row in max(r0, viewport.originRow)...max(min(r1, viewport.originRow + viewport.rows - 1), viewport.originRow) {
            for column in max(c0, viewport.originColumn)...max(min(c1, viewport.originColumn + viewport.columns - 1), viewport.originColumn)
            where BodyGeometry.contains(info, at: pose, viewport.worldPoint(column: column, row: row)) {
                frame[column, row].style.reverse = true
                marked += 1
            }
        }
        // An item smaller than a cell still gets its cell marked.
        if marked == 0 {
            let (column, row) = viewport.cell(for: Point(pose.x, pose.y))
            if viewport.contains(column: column, row: row) { frame[column, row].style.reverse = true }
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

    private static func outline(_ outline: BodyOutline, color: RGB, viewport: Viewport, canvas: inout BrailleCanvas) {
        polyline(polygon(outline), closed: true, color: color, viewport: viewport, canvas: &canvas)
    }

    /// The outline as a polygon (circles as a 32-gon).
    private static func polygon(_ outline: BodyOutline) -> [Point] {
        switch outline {
        case let .polygon(points): return points
        case let .circle(center, radius):
            return BodyGeometry.circlePolygon(center: center, radius: radius)
        }
    }

    static func polyline(_ points: [Point], closed: Bool, color: RGB, viewport: Viewport, canvas: inout BrailleCanvas) {
        guard points.count >= 2 else { return }
        let dots = points.map(viewport.dot(for:))
        for index in 0..<(dots.count - 1) { canvas.line(from: dots[index], to: dots[index + 1], color: color) }
        if closed { canvas.line(from: dots[dots.count - 1], to: dots[0], color: color) }
    }

    private static func drawCursor(_ point: Point, viewport: Viewport, into frame: inout ScreenFrame) {
        let (column, row) = viewport.cell(for: point)
        guard viewport.contains(column: column, row: row) else { return }
        // A handle's marker under the cursor stays visible (it marks the spot as well).
        let under = frame[column, row]
        if under.style.reverse, under.scalar.isASCII, under.scalar != " " { return }
        frame[column, row] = Cell(scalar: "+", style: CellStyle(bold: true, reverse: true))
    }

    /// Faint, and in colour darker: a world that is not live.
    private static func dim(rows: Range<Int>, of frame: inout ScreenFrame) {
        for row in rows {
            for column in 0..<frame.columns {
                var cell = frame[column, row]
                cell.style.dim = true
                if let color = cell.style.foreground {
                    cell.style.foreground = RGB(UInt8(Int(color.r) * 2 / 5), UInt8(Int(color.g) * 2 / 5), UInt8(Int(color.b) * 2 / 5))
                }
                frame[column, row] = cell
            }
        }
    }

    private static func drawBanner(_ lines: [String], rows: Int, into frame: inout ScreenFrame) {
        let width = min(frame.columns, (lines.map(\.count).max() ?? 0) + 4)
        let left = max(0, (frame.columns - width) / 2)
        let top = max(0, (rows - lines.count - 2) / 2)
        let style = CellStyle(bold: true, reverse: true)
        for index in 0..<(lines.count + 2) where top + index < rows {
            frame.fill(row: top + index, from: left, to: left + width, style: style)
        }
        for (index, line) in lines.enumerated() where top + 1 + index < rows {
            let column = left + max(0, (width - line.count) / 2)
            frame.put(String(line.prefix(width)), column: column, row: top + 1 + index, style: style)
        }
    }

    /// The world's settings, the caption and the notices, in their own rows under the world (`ScreenLayout`).
    private static func drawInfoRows(scene: SceneInfo?, feedback: Feedback, layout: ScreenLayout, into frame: inout ScreenFrame) {
        let lines = InfoRows.lines(settings: scene.map(StatusLine.settings), caption: scene?.caption,
                                   notices: feedback.notices.map(\.text), rows: layout.infoRows, columns: frame.columns)
        for (index, line) in lines.enumerated() {
            let row = layout.infoTop + index
            frame.put(line.text, column: 0, row: row, style: CellStyle(bold: line.notice))
            for column in 0..<min(line.settings, frame.columns) { frame[column, row].style.bold = true }
        }
    }

    /// While the `:` line is open: the property panel and Tab candidates, just above row `bottom` (over the
    /// world, as a menu is, until the line closes).
    private static func drawOverlays(world: WorldModel, interaction: Interaction, above bottom: Int, into frame: inout ScreenFrame) {
        var lines: [(String, CellStyle)] = []
        if interaction.commandLineOpen {
            if let editing = interaction.editing, let body = world.bodiesByID[editing] {
                lines += PropertyPanel.lines(for: body).map { ($0, CellStyle(reverse: true)) }
            }
            let candidates = interaction.commandLine.candidates
            if !candidates.isEmpty { lines.append((candidates.joined(separator: "  "), CellStyle(reverse: true))) }
        }
        var row = bottom - 1
        for (text, style) in lines.reversed() where row >= 0 {
            let shown = String(text.prefix(frame.columns))
            frame.fill(row: row, from: 0, to: shown.count + 1, style: style)
            frame.put(shown, column: 0, row: row, style: style)
            row -= 1
        }
    }

    private static func drawHelp(lines: [String], into frame: inout ScreenFrame) {
        let width = min(frame.columns, (lines.map(\.count).max() ?? 0) + 4)
        let height = min(frame.rows - 1, lines.count + 2)
        let left = max(0, (frame.columns - width) / 2)
        let top = max(0, (frame.rows - 1 - height) / 2)
        let style = CellStyle(reverse: true)
        for row in top..<min(top + height, frame.rows - 1) {
            frame.fill(row: row, from: left, to: left + width, style: style)
        }
        for (index, line) in lines.enumerated() where top + 1 + index < min(top + height, frame.rows - 1) {
            frame.put(String(line.prefix(width - 2)), column: left + 2, row: top + 1 + index,
                      style: index == 0 ? CellStyle(bold: true, reverse: true) : style)
        }
    }
}

extension String {
    /// The string padded with spaces to `width` characters (never cut).
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
