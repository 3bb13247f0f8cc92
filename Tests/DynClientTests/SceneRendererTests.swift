import NetProtocol
import Testing
@testable import dynclient

@Suite struct SceneRendererTests {
    let status = StatusInfo(address: "127.0.0.1:7700", connection: .connected)

    private func render(_ world: WorldModel, interaction: Interaction = Interaction(),
                        options: RenderOptions = RenderOptions()) -> ScreenFrame {
        SceneRenderer.render(world: world, poses: world.poses(atMs: 1000), interaction: interaction, status: status,
                             options: options, columns: 100, rows: 34)
    }

    private func reverseCells(_ frame: ScreenFrame) -> Int {
        (0..<30).reduce(0) { total, row in total + (0..<100).filter { frame[$0, row].style.reverse }.count }
    }

    @Test(.timeLimit(.minutes(3))) func theBoxIsFilledInItsColourAroundItsCentre() {
        let frame = render(Fixtures.world())
        // Box (350...450, 250...350) covers cells 45...54 across and 13...17 down; (50, 15) is the cursor.
        #expect(frame[47, 14] == Cell(scalar: Unicode.Scalar(0x28FF)!, style: CellStyle(foreground: RGB(255, 0, 0))))
        #expect(frame[52, 16].scalar == Unicode.Scalar(0x28FF)!)
        #expect(frame[44, 15] == .blank)
        #expect(frame[50, 15] == Cell(scalar: "+", style: CellStyle(bold: true, reverse: true)))
    }

    @Test(.timeLimit(.minutes(3))) func movingTheBoxMovesItsCells() {
        let frame = render(Fixtures.world(boxX: 600))
        #expect(frame[67, 14].style.foreground == RGB(255, 0, 0))
        #expect(frame[47, 14] == .blank)
    }

    @Test(.timeLimit(.minutes(3))) func worldBoundsAndStatusLineAreDrawn() {
        let frame = render(Fixtures.world())
        #expect(frame[10, 5].scalar == Unicode.Scalar(0x2847)!)
        #expect(frame[89, 5].scalar == Unicode.Scalar(0x28B8)!)
        #expect(frame.text(row: 33).hasPrefix(" connected | scene - | running | tick - |"))
        #expect(frame[0, 33].style.reverse)
        #expect(frame.text(row: 32).hasPrefix(HelpText.hint))
    }

    @Test(.timeLimit(.minutes(3))) func dragsAreLinesToTheGrabPointLabelledWithTheName() {
        var world = WorldModel()
        world.apply(welcome: Fixtures.welcome)
        world.apply(scene: Fixtures.scene)
        let drag = DragInfo(client: 3, name: "ann", body: 1, x: 100, y: 300, offset: Point(-50, 0))
        world.apply(snapshot: Fixtures.snapshot(tick: 2, drags: [drag]), arrivalMs: 1000)
        let frame = render(world)
        // Anchor (100, 300) is cell (20, 15): the label starts one cell to its right.
        #expect(frame.text(row: 15).contains("ann"))
        #expect(frame[21, 15].scalar == "a")
        #expect(frame[30, 15].style.foreground == SceneRenderer.dragColor)
    }

    @Test(.timeLimit(.minutes(3))) func selectedItemIsOutlinedInWhite() {
        var interaction = Interaction()
        _ = interaction.handle(.key(.tab), world: Fixtures.world(), viewport: nil, poses: [:])
        let frame = render(Fixtures.world(), interaction: interaction)
        #expect(frame[45, 14].style.foreground == SceneRenderer.selectionColor)
        #expect(frame[47, 14].style.foreground == RGB(255, 0, 0))
    }

    @Test(.timeLimit(.minutes(3))) func tinyTerminalAsksForRoom() {
        let frame = SceneRenderer.render(world: Fixtures.world(), poses: [:], interaction: Interaction(), status: status,
                                         columns: 19, rows: 10)
        #expect(frame.text(row: 0).hasPrefix("terminal too small"))
    }

    @Test(.timeLimit(.minutes(3))) func helpOverlayShowsTheKeys() {
        var interaction = Interaction()
        _ = interaction.handle(.key(.character("?")), world: Fixtures.world(), viewport: nil, poses: [:])
        let frame = render(Fixtures.world(), interaction: interaction)
        for line in HelpText.keys + HelpText.sceneLines {
            #expect((0..<31).contains { frame.text(row: $0).contains(line) }, "\(line)")
        }
        _ = interaction.handle(.key(.character("?")), world: Fixtures.world(), viewport: nil, poses: [:])
        let commands = render(Fixtures.world(), interaction: interaction)
        for line in HelpText.commands {
            #expect((0..<31).contains { commands.text(row: $0).contains(line) }, "\(line)")
        }
    }

    @Test(.timeLimit(.minutes(3))) func bothHelpPagesFitAnEightyByTwentyFourTerminal() {
        for page in 1...2 {
            let lines = HelpText.page(page, columns: 80)
            #expect(lines.count <= 21, "page \(page)")
            #expect(lines.allSatisfy { $0.count <= 76 }, "page \(page)")
        }
    }

    @Test(.timeLimit(.minutes(3))) func helpNamesEveryCommandAndTheHintFitsEightyColumns() {
        let help = HelpText.commands.joined(separator: " ")
        for word in ShortCommand.commandWords {
            #expect(help.contains(word), "\(word)")
        }
        #expect(HelpText.hint.count < 80)
    }

    @Test(.timeLimit(.minutes(3))) func withoutColourItemsAreOutlinesAndTheSelectionIsReverseVideo() {
        let mono = RenderOptions(monochrome: true)
        let plain = render(Fixtures.world(), options: mono)
        // The box's inside (cell 47, 14) is empty: an outline only; the cursor is the one reverse cell.
        #expect(plain[47, 14] == .blank)
        #expect(plain[45, 14].scalar != " ")
        #expect(reverseCells(plain) == 1)
        var interaction = Interaction()
        _ = interaction.handle(.key(.tab), world: Fixtures.world(), viewport: nil, poses: [:])
        let selected = render(Fixtures.world(), interaction: interaction, options: mono)
        // The box covers 10 x 5 cells; every one whose centre is inside turns reverse.
        #expect(reverseCells(selected) >= 45)
        #expect(selected[47, 14].style.reverse)
        #expect(selected[47, 14].scalar == Unicode.Scalar(0x28FF)!)
    }

    @Test(.timeLimit(.minutes(3))) func aBannerDimsTheWorldAndSitsInTheMiddle() {
        let frame = render(Fixtures.world(), options: RenderOptions(banner: ["disconnected", "server gone"]))
        #expect((0..<30).contains { frame.text(row: $0).contains(" disconnected ") })
        #expect(frame[47, 14].style.dim || frame[47, 14].style.reverse)
        #expect(frame[10, 5].style.dim)
        // The dimmed box is darker than its colour.
        #expect(frame[52, 17].style.foreground.map { $0.r < 255 } ?? true)
        #expect(!frame[0, 33].style.dim)
    }

    @Test(.timeLimit(.minutes(3))) func fieldsShowTheirRegionAndTheirKindsLetter() {
        var world = Fixtures.world()
        var scene = Fixtures.scene
        scene.fields = [FieldInfo(id: 5, kind: .vortex, x: 200, y: 450, region: FieldRegionSpec(.radius(60)))]
        world.apply(scene: scene)
        let frame = render(world)
        // (200, 450) is cell (30, 22); the circle of radius 60 passes 6 cells to the right (cell 36, 22).
        #expect(frame[30, 22].scalar == "@")
        #expect(frame[30, 22].style.reverse)
        #expect(frame[36, 22].style.foreground == SceneRenderer.fieldColor)
    }

    @Test(.timeLimit(.minutes(3))) func ownDragIsDrawnFromTheLocalPointerNotTheSnapshot() {
        var world = WorldModel()
        world.apply(welcome: Fixtures.welcome)
        world.apply(scene: Fixtures.scene)
        // The server still has our drag's anchor at the grab point (the round trip has not happened).
        let stale = DragInfo(client: 7, name: "me", body: 1, x: 405, y: 310, offset: Point(5, 10))
        world.apply(snapshot: Fixtures.snapshot(tick: 2, drags: [stale]), arrivalMs: 1000)
        var interaction = Interaction()
        let viewport = SceneRenderer.viewport(world: world, columns: 100, rows: 34)
        let poses = world.poses(atMs: 1000)
        _ = interaction.handle(.mouse(MouseEvent(kind: .press, button: .left, column: 50, row: 15)), world: world, viewport: viewport, poses: poses)
        _ = interaction.handle(.mouse(MouseEvent(kind: .motion, button: .left, column: 70, row: 15)), world: world, viewport: viewport, poses: poses)
        let frame = render(world, interaction: interaction)
        // The line reaches the pointer (705, 310), cell 70, right away; our own name label is not drawn.
        #expect(frame[68, 15].style.foreground == SceneRenderer.dragColor)
        #expect(!frame.text(row: 15).contains("me"))
    }
}
