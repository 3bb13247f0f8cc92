import Testing
@testable import Dynamics

@Test(.timeLimit(.minutes(3))) func idsStartAtOneAndAreNeverReusedEvenAfterRemoveAll() throws {
    let a = makeWorld()
    let first = try a.addItem(width: 10, height: 10, center: Vec2(100, 100))
    #expect(first == 1)
    #expect(a.removeItem(first))
    #expect(!a.removeItem(first))
    let second = try a.addItem(width: 10, height: 10, center: Vec2(100, 100))
    #expect(second == 2)
    let behavior = try a.add(SnapBehavior(item: second, point: Vec2(50, 50)))
    a.removeAll()
    #expect(a.itemCount == 0 && a.snapIDs.isEmpty)
    #expect(try a.addItem(width: 10, height: 10, center: Vec2(100, 100)) == 3)
    #expect(a.add(GravityBehavior()) == behavior + 1)
}

@Test(.timeLimit(.minutes(3))) func removingAnItemDropsItsPushesAttachmentsSnapsAndSelections() throws {
    let a = makeWorld()
    let gone = try a.addItem(width: 10, height: 10, center: Vec2(100, 100))
    let stays = try a.addItem(width: 10, height: 10, center: Vec2(300, 100))
    _ = try a.add(PushBehavior(items: [gone], mode: .continuous))
    let shared = try a.add(PushBehavior(items: [gone, stays], mode: .continuous))
    _ = try a.add(AttachmentBehavior.items(gone, stays))
    _ = try a.add(AttachmentBehavior.anchored(stays, to: Vec2(300, 50)))
    _ = try a.add(SnapBehavior(item: gone, point: .zero))
    let gravity = a.add(GravityBehavior(items: .only([gone, stays])))
    a.removeItem(gone)
    #expect(a.pushIDs == [shared])
    #expect(a.push(shared)!.items == [stays])
    #expect(a.attachmentIDs.count == 1)
    #expect(a.snapIDs.isEmpty)
    #expect(a.gravity(gravity)!.items == .only([stays]))
    #expect(a.itemIDs == [stays])
}

@Test(.timeLimit(.minutes(3))) func animatorPausesWhenEverythingRestsAndResumesOnAnyChange() throws {
    let a = makeWorld()
    a.step()
    #expect(!a.isRunning, "an animator with nothing to move is paused")
    var changes: [Bool] = []
    a.onRunningChange = { changes.append($0) }
    let id = try a.addItem(width: 50, height: 50, center: Vec2(400, 500))
    #expect(changes == [true])
    a.run(seconds: 3)
    #expect(!a.isRunning)
    #expect(changes == [true, false])
    let steps = a.stepCount, time = a.elapsedTime
    a.step()
    #expect(a.stepCount == steps && a.elapsedTime == time)
    try a.addLinearVelocity(Vec2(0, -300), to: id)
    #expect(a.isRunning && changes == [true, false, true])
    a.step()
    #expect(a.center(id).y < 575)
}

@Test(.timeLimit(.minutes(3))) func itemAtPointFindsTheTopmostContainingShape() throws {
    let a = makeWorld(gravity: false)
    let below = try a.addItem(width: 100, height: 100, center: Vec2(200, 200))
    let above = try a.addItem(shape: .ellipse, width: 60, height: 60, center: Vec2(240, 200))
    let tilted = try a.addItem(width: 100, height: 10, center: Vec2(500, 300), angle: Double.pi / 2)
    #expect(a.item(at: Vec2(250, 200)) == above)
    #expect(a.item(at: Vec2(160, 200)) == below)
    #expect(a.item(at: Vec2(500, 340)) == tilted)
    #expect(a.item(at: Vec2(540, 300)) == nil)
    #expect(a.nearestItem(to: Vec2(480, 320)) == tilted)
    #expect(a.nearestItem(to: Vec2(0, 0)) == below)
}

@Test(.timeLimit(.minutes(3))) func setTransformTeleportsAndWakesTheItem() throws {
    let a = makeWorld()
    let id = try a.addItem(width: 50, height: 50, center: Vec2(400, 575))
    a.run(seconds: 2)
    #expect(!a.isRunning)
    try a.setTransform(id, center: Vec2(100, 100), angle: 0.5)
    #expect(a.isRunning)
    #expect(a.item(id)!.angle == 0.5)
    a.run(seconds: 2)
    #expect(abs(a.center(id).x - 100) < 30 && a.center(id).y > 540)
}
