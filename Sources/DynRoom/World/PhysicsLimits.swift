import NetProtocol

/// The largest values the server accepts (docs/PROTOCOL.md, "Limits"). Beyond them the physics would
/// overflow or the engine would have to clamp silently, so a command carrying one is answered `bad_value`
/// and changes nothing.
package enum PhysicsLimits {
    /// Largest speed, pt/s (the engine's own speed limit).
    package static let maxSpeed = 40_000.0
    /// Largest angular speed, rad/s.
    package static let maxAngularSpeed = 180.0
    /// Largest push magnitude (an instantaneous push of 1e10 on mass 1 asks for 1e12 pt/s, which the engine
    /// clamps to its speed limit; larger values are refused outright).
    package static let maxPushMagnitude = 10_000_000_000.0
    /// Largest gravity magnitude (1 = 1000 pt/s²).
    package static let maxGravityMagnitude = 1_000.0

    package static func checkSpeed(_ v: Double?, _ field: String) throws(ProtocolError) {
        guard let v else { return }
        guard v.isFinite, abs(v) <= maxSpeed else {
            throw ProtocolError(.badValue, "field \"\(field)\": a speed must be within ±\(Int(maxSpeed)) pt/s")
        }
    }

    package static func checkAngularSpeed(_ v: Double?, _ field: String) throws(ProtocolError) {
        guard let v else { return }
        guard v.isFinite, abs(v) <= maxAngularSpeed else {
            throw ProtocolError(.badValue, "field \"\(field)\": an angular speed must be within ±\(Int(maxAngularSpeed)) rad/s")
        }
    }

    package static func checkPush(_ magnitude: Double, _ field: String) throws(ProtocolError) {
        guard magnitude.isFinite, abs(magnitude) <= maxPushMagnitude else {
            throw ProtocolError(.badValue, "field \"\(field)\": a push magnitude must be within ±\(Int(maxPushMagnitude))")
        }
    }

    package static func checkGravity(_ magnitude: Double, _ field: String) throws(ProtocolError) {
        guard magnitude.isFinite, abs(magnitude) <= maxGravityMagnitude else {
            throw ProtocolError(.badValue, "field \"\(field)\": a gravity magnitude must be within ±\(Int(maxGravityMagnitude))")
        }
    }
}
