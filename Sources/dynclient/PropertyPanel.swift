import NetProtocol

/// The `e` panel: the selected item's properties with their values, as `set` names them, so that the
/// `:set ID ` line opened beside it can change any of them.
enum PropertyPanel {
    static func lines(for body: BodyInfo) -> [String] {
        let f = StatusLine.compact
        return [
            " #\(body.id) \(body.shape.wireName) \(f(body.width))x\(f(body.height)) - type PROP VALUE, Enter sets, Esc cancels ",
            " elasticity \(f(body.elasticity))  friction \(f(body.friction))  density \(f(body.density)) ",
            " resistance \(f(body.resistance))  angular_resistance \(f(body.angularResistance)) ",
            " allows_rotation \(body.allowsRotation)  anchored \(body.anchored)  charge \(f(body.charge))  color \(body.color) ",
        ]
    }
}
