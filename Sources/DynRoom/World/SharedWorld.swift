import Dynamics
import NetProtocol

/// The shared world: the animator plus what the wire protocol needs on top of it (colours, the scene name,
/// each body's push/snap behaviors, each client's drag).
///
/// Guarantees: every mutation goes through the animator's validation (nothing non-finite gets in); a body's
/// behaviors and drags are forgotten when the body goes; `structureChanged` is set by every change that
/// alters what a `scene` message shows, and cleared by whoever broadcasts the scene.
package final class SharedWorld {
    package let animator: DynamicAnimator
    package let width: Double
    package let height: Double
    /// Items the world may hold at once; a spawn beyond it is `bad_value`.
    package let maxBodies: Int
    package var sceneName = "empty"
    package var structureChanged = true

    package var colors: [ItemID: String] = [:]
    package var gravityID: BehaviorID = 0
    package var collisionID: BehaviorID = 0
    /// The scene's own attachments (drawn by clients); drags are kept apart in `drags`.
    package var sceneAttachments: [BehaviorID] = []
    package var continuousPushes: [ItemID: BehaviorID] = [:]
    package var instantPushes: [ItemID: BehaviorID] = [:]
    package var snaps: [ItemID: BehaviorID] = [:]
    package var drags: [Int: Drag] = [:]
    package var paletteIndex = 0
    /// Held by `pause` until `resume`, across scene loads (SharedWorld+Time.swift).
    package var held = false
    /// Simulated time of held steps the animator did not take because the world was at rest, so that
    /// `step` advances `time` by exactly ticks/tick_hz.
    package var restTime = 0.0
    /// The kind each listed attachment was created as (`attach` and the scenes), by attachment id.
    package var attachmentKinds: [BehaviorID: AttachmentKindName] = [:]

    package struct Drag {
        var body: ItemID
        /// The `DragBehavior` (a bounded drag joint) that pulls the body's grab point toward `anchor`.
        var joint: BehaviorID
        var anchor: Vec2
        var offset: Vec2
        var clientName: String
    }

    /// How far (points) past the world's edges every moving item must be, and leaving, for the world to count
    /// as at rest (docs/ENGINE.md, "Departed items"): one 100 pt item's width, so an item is well out of
    /// sight before its world rests, and a world of 600 pt rests well within a second of its last item leaving.
    package static let departedMargin = 100.0

    package init(width: Double, height: Double, stepHz: Double, maxBodies: Int = 5000) {
        animator = DynamicAnimator(width: width, height: height, stepHz: stepHz)
        animator.departedMargin = SharedWorld.departedMargin
        self.width = width
        self.height = height
        self.maxBodies = maxBodies
        resetBehaviors()
    }

    /// Empties the world (ids keep counting up) and installs the world-wide gravity and collision behaviors.
    package func clear(name: String) {
        animator.removeAll()
        colors.removeAll()
        sceneAttachments.removeAll()
        continuousPushes.removeAll()
        instantPushes.removeAll()
        snaps.removeAll()
        drags.removeAll()
        attachmentKinds.removeAll()
        sceneName = name
        resetBehaviors()
        structureChanged = true
    }

    private func resetBehaviors() {
        gravityID = animator.add(GravityBehavior(items: .all, direction: Vec2(0, 1)))
        var collision = CollisionBehavior()
        collision.items = .all
        collision.mode = .everything
        collisionID = animator.add(collision)
    }

    package var gravity: GravityBehavior {
        get { animator.gravity(gravityID) ?? GravityBehavior() }
        set { try? animator.update(gravityID, newValue); structureChanged = true }
    }

    package var collision: CollisionBehavior {
        get { animator.collision(collisionID) ?? CollisionBehavior() }
        set { try? animator.update(collisionID, newValue); structureChanged = true }
    }

    package func nextColor() -> String {
        defer { paletteIndex += 1 }
        return Palette.colors[paletteIndex % Palette.colors.count]
    }

    /// Adds an item with a colour; the caller's values were validated by the decoder, the animator checks again.
    @discardableResult
    package func spawn(shape: ItemShape = .rect, width: Double, height: Double, at center: Vec2, angle: Double = 0,
               velocity: Vec2 = .zero, properties: ItemProperties = .init(), color: String? = nil) throws(DynamicsError) -> ItemID {
        let id = try animator.addItem(shape: shape, width: width, height: height, center: center, angle: angle,
                                      velocity: velocity, properties: properties)
        colors[id] = color ?? nextColor()
        structureChanged = true
        return id
    }

    /// Removes an item and everything that refers to it. Returns the clients whose drag ended.
    @discardableResult
    package func remove(_ id: ItemID) -> [Int] {
        guard animator.removeItem(id) else { return [] }
        colors[id] = nil
        continuousPushes[id] = nil
        instantPushes[id] = nil
        snaps[id] = nil
        sceneAttachments.removeAll { animator.attachment($0) == nil && animator.jointAttachment($0) == nil }
        let released = drags.filter { $0.value.body == id }.map(\.key)
        for client in released { drags[client] = nil }
        structureChanged = true
        return released
    }

    package func contains(_ id: ItemID) -> Bool { colors[id] != nil }

    /// Ends a client's drag; false when it had none.
    @discardableResult
    package func endDrag(client: Int) -> Bool {
        guard let drag = drags.removeValue(forKey: client) else { return false }
        animator.removeBehavior(drag.joint)
        return true
    }
}

/// Scene colours: distinct, readable on dark and light terminals.
package enum Palette {
    package static let colors = ["#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#46f0f0",
                         "#f032e6", "#bcf60c", "#fabebe", "#008080", "#e6beff", "#9a6324", "#fffac8",
                         "#aaffc3", "#808000", "#ffd8b1", "#a9a9a9"]
    package static let ground = "#808080"
}
