/// One sentence per preset scene, sent as `scene.caption` (docs/PROTOCOL.md, "scene"): what the scene shows
/// and what to try in it, in words for both clients (the page's pointer, the terminal's keys in brackets).
///
/// Guarantees: every name in `Scenes.names` has a caption; a world whose name is not a preset (a restored
/// state of an old version) has none.
extension Scenes {
    package static func caption(_ name: String) -> String? {
        switch name {
        case "default":
            return "Something of every behaviour: a stack, two balls, a shelf, a pendulum on an anchor, a spring pair "
                + "and a snapped square. Click an item to push it toward the click, drag one to throw it, "
                + "pick another scene to try one recipe at a time."
        case "empty":
            return "An empty world. Spawn items (the page's spawn button, or n at the cursor) and give them gravity "
                + "or fields."
        case "gravity":
            return "Squares falling under gravity onto the floor. Turn gravity (the page's gravity buttons, or g) "
                + "and watch them slide to another wall."
        case "collision":
            return "Two squares landing on a boundary line. Reload them (r), then set collision to boundaries while "
                + "they fall (c twice: items, then boundaries; or the page's collision menu): they pass through each "
                + "other and still stop on the line."
        case "push":
            return "A square with a continuous push and no gravity. Click (or Enter at the cursor) beside it: it is "
                + "pushed toward the click, harder the farther away you click."
        case "attachment":
            return "A square hanging from an anchor by an off-centre point. Drag the anchor's handle (the o "
                + "in the terminal) and the square swings along through the attachment."
        case "snap":
            return "A square snapped to the centre with damping 0.5: it springs in and settles with angle 0. Select "
                + "it (click it, or Tab) and right click or long press elsewhere (s at the cursor) to snap it there."
        case "elasticity":
            return "On the left a stacked pair, the lower square elastic (0.9): as in UIKit's engine they fall and "
                + "bounce together, a little. On the right the same two squares apart: the elastic one bounces high."
        case "fields":
            return "A radial gravity well (left) pulls items in and a vortex (right) stirs them. Drag a field's "
                + "handle to move it (its letter in the terminal), or add one (f)."
        case "joints":
            return "One of each attachment kind: a beam welded to a wall, a box on a sliding rail, a gate on a pin "
                + "that swings at most 0.8 rad, a ball on a rope. Drag them to feel each limit."
        case "group":
            return "Rectangles grouped into a concave cup and an L that move as one rigid item; a ball lands in the "
                + "cup. Drag a part: the whole group follows."
        default:
            return nil
        }
    }
}
