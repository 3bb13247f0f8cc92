import NetProtocol
import Testing
@testable import dynclient

@Suite struct InteractionTests {
    // 100 x 34 terminal: the world area is 100 x 30 (ScreenLayout: 2 info rows, the message bar, the status line), so cell (50, 15) is world (405, 310), on the box (id 1).
    let world = Fixtures.world()
    var viewport: Viewport { SceneRenderer.viewport(world: world, columns: 100, rows: 34)! }

    private func mouse(_ kind: MouseEvent.Kind, _ button: MouseButton, _ column: Int, _ row: Int) -> InputEvent {
        .mouse(MouseEvent(kind: kind, button: button, column: column, row: row))
    }

    private func run(_ events: [InputEvent], on interaction: inout Interaction, atMs now: UInt64 = 0) -> [UIAction] {
        events.flatMap { interaction.handle($0, world: world, viewport: viewport, poses: world.poses(atMs: 1000), nowMs: now) }
    }

    private func keys(_ text: String) -> [InputEvent] { text.map { .key(.character($0)) } }

    @Test(.timeLimit(.minutes(3))) func clickWithoutMovingTapsAtTheCellsWorldPoint() {
        var interaction = Interaction()
        let actions = run([mouse(.press, .left, 10, 2), mouse(.release, .left, 10, 2)], on: &interaction)
        #expect(actions == [.send(.tap(x: 5, y: 50, body: nil, mode: .continuous))])
        #expect(interaction.selected == nil)
    }

    @Test(.timeLimit(.minutes(3))) func pressOnAnItemAndMoveDragsItThenReleaseEnds() {
        var interaction = Interaction()
        let actions = run([mouse(.press, .left, 50, 15), mouse(.motion, .left, 50, 15), mouse(.motion, .left, 55, 15),
                           mouse(.motion, .left, 60, 16), mouse(.release, .left, 60, 16)], on: &interaction)
        #expect(actions == [
            .send(.drag(phase: .begin, x: 405, y: 310, body: 1)),
            .send(.drag(phase: .move, x: 455, y: 310, body: nil)),
            .send(.drag(phase: .move, x: 505, y: 330, body: nil)),
            .send(.drag(phase: .end, x: nil, y: nil, body: nil)),
        ])
        #expect(interaction.selected == 1)
        #expect(!interaction.isDragging)
    }

    @Test(.timeLimit(.minutes(3))) func pressOnEmptySpaceAndMoveDoesNothing() {
        var interaction = Interaction()
        #expect(run([mouse(.press, .left, 10, 2), mouse(.motion, .left, 12, 3), mouse(.release, .left, 12, 3)],
                    on: &interaction).isEmpty)
    }

    @Test(.timeLimit(.minutes(3))) func rightClickSnapsTheSelectedItem() {
        var interaction = Interaction()
        #expect(run([mouse(.press, .right, 10, 2)], on: &interaction) == [.notice("select an item first (Tab or click)")])
        _ = run([.key(.tab)], on: &interaction)
        #expect(interaction.selected == 1)
        #expect(run([mouse(.press, .right, 10, 2), mouse(.release, .right, 10, 2)], on: &interaction)
            == [.send(.snap(body: 1, x: 5, y: 50, damping: nil))])
    }

    @Test(.timeLimit(.minutes(3))) func tabAndShiftTabCycleThroughItemsInIdOrder() {
        var interaction = Interaction()
        var seen: [Int?] = []
        for key in [Key.tab, .tab, .tab, .backTab] {
            _ = run([.key(key)], on: &interaction)
            seen.append(interaction.selected)
        }
        #expect(seen == [1, 2, 1, 2])
    }

    @Test(.timeLimit(.minutes(3))) func cursorKeysMoveOneCellAndTapAtTheCursor() {
        var interaction = Interaction()
        // The cursor starts at the centre (400, 300); one cell is 10 pt across and 20 pt down.
        _ = run([.key(.right), .key(.right), .key(.down), .key(.up), .key(.up)], on: &interaction)
        #expect(interaction.cursorPoint(world: world) == Point(420, 280))
        #expect(run([.key(.enter)], on: &interaction) == [.send(.tap(x: 420, y: 280, body: nil, mode: .continuous))])
        #expect(run([.key(.character("t"))], on: &interaction) == [.send(.tap(x: 420, y: 280, body: nil, mode: .continuous))])
    }

    @Test(.timeLimit(.minutes(3))) func cursorStaysInsideTheWorld() {
        var interaction = Interaction()
        _ = run(Array(repeating: .key(.character("H")), count: 20), on: &interaction)
        #expect(interaction.cursorPoint(world: world) == Point(0, 300))
    }

    @Test(.timeLimit(.minutes(3))) func keyboardDragFollowsTheCursorAndEndsWithDOrEscape() {
        var interaction = Interaction()
        #expect(run([.key(.character("d")), .key(.left)], on: &interaction) == [
            .send(.drag(phase: .begin, x: 400, y: 300, body: nil)),
            .send(.drag(phase: .move, x: 390, y: 300, body: nil)),
        ])
        #expect(run([.key(.character("d"))], on: &interaction) == [.send(.drag(phase: .end, x: nil, y: nil, body: nil))])
        _ = run([.key(.character("d"))], on: &interaction)
        #expect(run([.key(.escape)], on: &interaction) == [.send(.drag(phase: .end, x: nil, y: nil, body: nil))])
        #expect(run([.key(.escape)], on: &interaction).isEmpty)
    }

    @Test(.timeLimit(.minutes(3))) func rejectedDragBeginForgetsTheDrag() {
        var interaction = Interaction()
        _ = run([.key(.character("d"))], on: &interaction)
        interaction.dragRejected()
        #expect(run([.key(.left)], on: &interaction).isEmpty)
    }

    @Test(.timeLimit(.minutes(3))) func gravityTurnsAQuarterAndSceneReloads() {
        var interaction = Interaction()
        #expect(run([.key(.character("g"))], on: &interaction) == [.send(.gravity(.angle(Double.pi, magnitude: 1)))])
        #expect(Interaction.quarterTurn(Double.pi) == -Double.pi / 2)
        #expect(run([.key(.character("r"))], on: &interaction) == [.send(.scene(name: "default"))])
    }

    @Test(.timeLimit(.minutes(3))) func snapKeyNeedsASelection() {
        var interaction = Interaction()
        #expect(run([.key(.character("s"))], on: &interaction) == [.notice("select an item first (Tab or click)")])
        _ = run([.key(.backTab)], on: &interaction)
        #expect(run([.key(.character("s"))], on: &interaction) == [.send(.snap(body: 2, x: 400, y: 300, damping: nil))])
    }

    @Test(.timeLimit(.minutes(3))) func quitEndsAnOpenDragFirst() {
        var interaction = Interaction()
        #expect(run([.key(.character("q"))], on: &interaction) == [.quit])
        _ = run([.key(.character("d"))], on: &interaction)
        #expect(run([.key(.control(3))], on: &interaction) == [.send(.drag(phase: .end, x: nil, y: nil, body: nil)), .quit])
        #expect(run([.key(.control(0x1A))], on: &interaction) == [.suspend])
    }

    @Test(.timeLimit(.minutes(3))) func helpOverlaySwallowsTheNextKey() {
        var interaction = Interaction()
        _ = run([.key(.character("?"))], on: &interaction)
        #expect(interaction.showHelp)
        #expect(run([.key(.enter)], on: &interaction).isEmpty)
        #expect(!interaction.showHelp)
    }

    @Test(.timeLimit(.minutes(3))) func numberKeysLoadTheListedScenes() {
        var interaction = Interaction()
        #expect(run(keys("1"), on: &interaction) == [.send(.scene(name: "default"))])
        #expect(run(keys("7"), on: &interaction) == [.send(.scene(name: SceneCatalog.names[6]))])
        #expect(run(keys("9"), on: &interaction).isEmpty == (SceneCatalog.names.count < 9))
    }

    @Test(.timeLimit(.minutes(3))) func cCyclesTheCollisionMode() {
        var interaction = Interaction()
        // The fixture scene collides everything: the next mode is items.
        #expect(run(keys("c"), on: &interaction) == [.send(.collision(mode: .items))])
        #expect(Interaction.nextCollisionMode(after: .items) == .boundaries)
        #expect(Interaction.nextCollisionMode(after: .boundaries) == .everything)
    }

    @Test(.timeLimit(.minutes(3))) func nSpawnsABoxAtTheCursorAndXRemovesTheSelection() {
        var interaction = Interaction()
        _ = run([.key(.right)], on: &interaction)
        #expect(run(keys("n"), on: &interaction) == [.send(.spawn(shape: .rect, width: 60, height: 60, x: 410, y: 300,
                                                                  angle: nil, vx: nil, vy: nil, patch: PropertyPatch()))])
        #expect(run(keys("x"), on: &interaction) == [.notice("select an item first (Tab or click)")])
        _ = run([.key(.tab)], on: &interaction)
        #expect(run(keys("x"), on: &interaction) == [.send(.remove(body: 1))])
    }

    @Test(.timeLimit(.minutes(3))) func eOpensTheLineOnTheSelectionsProperties() {
        var interaction = Interaction()
        _ = run([.key(.tab)], on: &interaction)
        #expect(run(keys("e"), on: &interaction).isEmpty)
        #expect(interaction.commandLineOpen)
        #expect(interaction.editing == 1)
        #expect(interaction.commandLine.text == "set 1 ")
        _ = run(keys("el") + [.key(.tab)], on: &interaction)
        #expect(interaction.commandLine.text == "set 1 elasticity ")
        #expect(run(keys("0.8") + [.key(.enter)], on: &interaction) == [.runLine("set 1 elasticity 0.8")])
        #expect(!interaction.commandLineOpen)
        #expect(interaction.editing == nil)
    }

    @Test(.timeLimit(.minutes(3))) func theColonLineTakesEveryKeyUntilEnterOrEscape() {
        var interaction = Interaction()
        #expect(run(keys(":scene snq") + [.key(.backspace)] + keys("ap"), on: &interaction).isEmpty)
        #expect(interaction.commandLine.text == "scene snap")
        #expect(run([.key(.enter)], on: &interaction) == [.runLine("scene snap")])
        // Escape closes without running; the typed q did not quit.
        #expect(run(keys(":q") + [.key(.escape)], on: &interaction).isEmpty)
        #expect(!interaction.commandLineOpen)
        // Up brings the last line back.
        #expect(run(keys(":") + [.key(.up), .key(.enter)], on: &interaction) == [.runLine("scene snap")])
        #expect(run(keys(":") + [.key(.control(3))], on: &interaction) == [.quit])
    }

    @Test(.timeLimit(.minutes(3))) func kTogglesContactEvents() {
        var interaction = Interaction()
        #expect(run(keys("k"), on: &interaction) == [.send(.subscribe(SubscriptionChange(contacts: true)))])
        #expect(interaction.showContacts)
        #expect(run(keys("k"), on: &interaction) == [.send(.subscribe(SubscriptionChange(contacts: false)))])
    }

    @Test(.timeLimit(.minutes(3))) func ownDragIsKnownLocallyFromThePress() {
        var interaction = Interaction()
        _ = run([mouse(.press, .left, 50, 15)], on: &interaction)
        // Cell (50, 15) is world (405, 310); the box's centre is (400, 300).
        #expect(interaction.ownDrag?.body == 1)
        #expect(interaction.ownDrag?.grab == Point(5, 10))
        _ = run([mouse(.motion, .left, 60, 15)], on: &interaction)
        #expect(interaction.pointer == Point(505, 310))
        _ = run([mouse(.release, .left, 60, 15)], on: &interaction)
        #expect(interaction.ownDrag == nil)
    }

    @Test(.timeLimit(.minutes(3))) func pHoldsAndResumesAndDotSteps() {
        var interaction = Interaction()
        #expect(run(keys("p"), on: &interaction) == [.send(.pause)])
        #expect(run(keys("."), on: &interaction) == [.send(.step(ticks: 1))])
        var held = Fixtures.world()
        var snapshot = Fixtures.snapshot(tick: 4)
        snapshot.held = true
        held.apply(snapshot: snapshot, arrivalMs: 1100)
        #expect(interaction.handle(.key(.character("p")), world: held, viewport: nil, poses: [:]) == [.send(.resume)])
    }

    @Test(.timeLimit(.minutes(3))) func fPlacesAFieldAtTheCursorAndCyclesItsKind() {
        var interaction = Interaction()
        let region = FieldRegionSpec(.radius(Interaction.fieldRadius))
        #expect(run(keys("f"), on: &interaction) == [.send(.field(kind: .linearGravity, FieldParameters(
            x: 400, y: 300, region: region, direction: DirectionVector(1, 0))))])
        interaction.placedField(9)
        // Field 9 is not in the scene (the fixture has no fields): nothing to remove, the next kind is placed.
        #expect(run(keys("f"), on: &interaction) == [.send(.field(kind: .radialGravity, FieldParameters(x: 400, y: 300, region: region)))])
    }

    @Test(.timeLimit(.minutes(3))) func releasingAMovingDragFlingsTheItem() {
        var interaction = Interaction()
        _ = run([mouse(.press, .left, 50, 15)], on: &interaction, atMs: 1000)
        _ = run([mouse(.motion, .left, 52, 15)], on: &interaction, atMs: 1020)
        _ = run([mouse(.motion, .left, 54, 15)], on: &interaction, atMs: 1040)
        // 40 pt in 40 ms: 1000 pt/s to the right.
        let actions = run([mouse(.release, .left, 54, 15)], on: &interaction, atMs: 1050)
        #expect(actions == [.send(.drag(phase: .end, x: nil, y: nil, body: nil)),
                            .send(.velocity(body: 1, vx: 1000, vy: 0, av: nil, add: false))])
    }

    @Test(.timeLimit(.minutes(3))) func releasingAfterThePointerStoppedDoesNotFling() {
        var interaction = Interaction()
        _ = run([mouse(.press, .left, 50, 15)], on: &interaction, atMs: 1000)
        _ = run([mouse(.motion, .left, 54, 15)], on: &interaction, atMs: 1020)
        let actions = run([mouse(.release, .left, 54, 15)], on: &interaction, atMs: 1500)
        #expect(actions == [.send(.drag(phase: .end, x: nil, y: nil, body: nil))])
    }

    @Test(.timeLimit(.minutes(3))) func pressingAnAnchorMarkerAndMovingMovesTheAnchor() {
        var world = Fixtures.world()
        var scene = Fixtures.scene
        var attachment = AttachmentInfo(body: 1, anchor: Point(405, 110), offset: Point(0, 0), length: 190, frequency: 0, damping: 0)
        attachment.id = 4
        scene.attachments = [attachment]
        world.apply(scene: scene)
        var interaction = Interaction()
        let poses = world.poses(atMs: 1000)
        // (405, 110) is cell (50, 5).
        var actions = interaction.handle(mouse(.press, .left, 50, 5), world: world, viewport: viewport, poses: poses)
        actions += interaction.handle(mouse(.motion, .left, 60, 5), world: world, viewport: viewport, poses: poses)
        #expect(interaction.movingHandle == .anchor(4))
        #expect(interaction.pointer == Point(505, 110))
        actions += interaction.handle(mouse(.release, .left, 60, 5), world: world, viewport: viewport, poses: poses)
        #expect(actions == [.send(.anchor(attachment: 4, x: 505, y: 110))])
        #expect(interaction.movingHandle == nil)
        #expect(interaction.selected == nil)
    }
}
