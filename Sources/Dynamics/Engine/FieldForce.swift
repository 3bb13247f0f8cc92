#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a field does to one body this step: an acceleration in pt/s² (mass already divided out), or, for a
/// velocity field, the velocity the body must have at the end of the step.
struct FieldEffect {
    var acceleration = Vec2.zero
    var targetVelocity: Vec2?
}

/// The field formulas of docs/UIKIT.md (Fields), evaluated at a body's center. UIKit's units: 1 m = 100 pt,
/// a force of 1 N accelerates mass 1 by 1 m/s² = 100 pt/s².
enum FieldForce {
    static let pointsPerMeter = 100.0

    /// The effect of `field` on a body at `center` with `velocity` (pt/s), `mass` and `charge`, at `time` s.
    static func effect(of field: FieldBehavior, center: Vec2, velocity: Vec2, mass: Double, charge: Double,
                       time: Double) -> FieldEffect {
        let d = center - field.position
        guard field.region.contains(d) else { return FieldEffect() }
        let rMeters = d.length / pointsPerMeter
        let rHat = d.normalized
        let f = falloffFactor(field, rMeters: rMeters)
        let s = field.strength
        let vMeters = velocity * (1 / pointsPerMeter)
        // Either an acceleration in m/s² or a force in N; both become pt/s² at the end.
        var accel = Vec2.zero, force = Vec2.zero
        switch field.kind {
        case .linearGravity:
            accel = field.direction * (s * f)
        case .radialGravity:
            accel = rHat * (-s * f)
        case .spring:
            force = d * (-s * f / pointsPerMeter)
        case .drag:
            let rel = vMeters - field.direction
            force = rel * (-s * rel.length * f)
        case .velocity:
            return FieldEffect(targetVelocity: field.direction * pointsPerMeter)
        case .vortex:
            force = Vec2(rHat.y, -rHat.x) * (s * f)
        case .noise:
            force = FieldNoise.vector(field, at: center, time: time) * (s * f)
        case .turbulence:
            force = FieldNoise.vector(field, at: center, time: time) * (s * f * vMeters.lengthSquared)
        case .electric:
            force = rHat * (s * charge * f)
        case .magnetic:
            force = Vec2(vMeters.y, -vMeters.x) * (s * charge * f)
        }
        let total = (accel + force * (1 / mass)) * pointsPerMeter
        return FieldEffect(acceleration: total.isFinite ? total : .zero)
    }

    /// max(r, minimumRadius)^-falloff with r in meters; 1 when falloff is 0.
    static func falloffFactor(_ field: FieldBehavior, rMeters: Double) -> Double {
        guard field.falloff != 0 else { return 1 }
        let r = max(rMeters, field.minimumRadius / pointsPerMeter)
        // At the field's very center (and no minimum radius) the field is as strong as at 1 cm.
        return power(max(r, 0.01), -field.falloff)
    }
}
