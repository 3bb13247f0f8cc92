#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 2D vector in points (x right, y down). Pure value type; every operation is IEEE `Double` arithmetic,
/// so the same inputs always give bit-identical results.
public struct Vec2: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Vec2(0, 0)

    @inlinable public static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Vec2, s: Double) -> Vec2 { Vec2(a.x * s, a.y * s) }
    @inlinable public static func * (s: Double, a: Vec2) -> Vec2 { Vec2(a.x * s, a.y * s) }
    @inlinable public static prefix func - (a: Vec2) -> Vec2 { Vec2(-a.x, -a.y) }
    @inlinable public static func += (a: inout Vec2, b: Vec2) { a = a + b }
    @inlinable public static func -= (a: inout Vec2, b: Vec2) { a = a - b }

    /// Dot product.
    @inlinable public func dot(_ o: Vec2) -> Double { x * o.x + y * o.y }
    /// 2D cross product (z of the 3D cross product).
    @inlinable public func cross(_ o: Vec2) -> Double { x * o.y - y * o.x }
    @inlinable public var lengthSquared: Double { x * x + y * y }
    @inlinable public var length: Double { lengthSquared.squareRoot() }
    /// Unit vector in the same direction, or `.zero` for a zero (or non-finite) vector.
    @inlinable public var normalized: Vec2 {
        let l = length
        return l > 0 && l.isFinite ? Vec2(x / l, y / l) : .zero
    }
    /// True when both components are finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    public var description: String { "(\(x), \(y))" }
}

/// `w × v` for a scalar angular velocity `w`.
@inlinable func crossSV(_ s: Double, _ v: Vec2) -> Vec2 { Vec2(-s * v.y, s * v.x) }

/// A rotation stored as cosine and sine, so that rotating a vector needs no trigonometry.
struct Rot: Sendable {
    var c: Double
    var s: Double
    static let identity = Rot(c: 1, s: 0)

    init(c: Double, s: Double) {
        self.c = c
        self.s = s
    }

    init(angle: Double) {
        (s, c) = Trig.sinCos(angle)
    }

    @inline(__always) func rotate(_ v: Vec2) -> Vec2 { Vec2(c * v.x - s * v.y, s * v.x + c * v.y) }
    @inline(__always) func inverseRotate(_ v: Vec2) -> Vec2 { Vec2(c * v.x + s * v.y, -s * v.x + c * v.y) }

    /// First-order rotation update followed by renormalisation (Box2D's integrate-rotation).
    @inline(__always) func integrated(by deltaAngle: Double) -> Rot {
        if deltaAngle == 0 { return self }
        let c2 = c - deltaAngle * s
        let s2 = s + deltaAngle * c
        let inv = 1 / (c2 * c2 + s2 * s2).squareRoot()
        return Rot(c: c2 * inv, s: s2 * inv)
    }
}

// dyn's own (Core/Trig.swift): libm's differ between platforms, which would break cross-platform determinism.
@inline(__always) func sine(_ x: Double) -> Double { Trig.sin(x) }
@inline(__always) func cosine(_ x: Double) -> Double { Trig.cos(x) }
@inline(__always) func arcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }

/// Wraps an angle to [-pi, pi] so that angular springs take the short way round.
func wrapAngle(_ a: Double) -> Double {
    if a >= -Double.pi && a <= Double.pi { return a }
    let twoPi = 2 * Double.pi
    var r = a.truncatingRemainder(dividingBy: twoPi)
    if r > Double.pi { r -= twoPi } else if r < -Double.pi { r += twoPi }
    return r
}

/// Returns `v` scaled down to at most `maxLength`; never produces NaN or infinity for finite `maxLength`.
/// Infinite components keep their sign, NaN components become 0 (defence in depth: inputs are validated).
@inline(__always) func clampLength(_ v: Vec2, _ maxLength: Double) -> Vec2 {
    let lsq = v.x * v.x + v.y * v.y
    if lsq <= maxLength * maxLength { return v }
    return slowClampLength(v, maxLength)
}

func slowClampLength(_ v: Vec2, _ maxLength: Double) -> Vec2 {
    var x = v.x.isNaN ? 0 : v.x
    var y = v.y.isNaN ? 0 : v.y
    if x.isInfinite || y.isInfinite {
        x = x.isInfinite ? (x < 0 ? -1 : 1) : 0
        y = y.isInfinite ? (y < 0 ? -1 : 1) : 0
    }
    let m = max(abs(x), abs(y))
    if m == 0 { return .zero }
    let ux = x / m, uy = y / m
    let l = (ux * ux + uy * uy).squareRoot()
    if m * l <= maxLength { return Vec2(x, y) }
    let k = maxLength / l
    return Vec2(ux * k, uy * k)
}

/// Clamps a scalar to [-limit, limit], mapping NaN to 0.
@inline(__always) func clampMagnitude(_ v: Double, _ limit: Double) -> Double {
    if v > limit { return limit }
    if v < -limit { return -limit }
    return v.isNaN ? 0 : v
}

// dyn's own (Core/ExpLog.swift), for the same reason as sine and cosine.
@inline(__always) func naturalLog(_ x: Double) -> Double { ExpLog.log(x) }
@inline(__always) func exponential(_ x: Double) -> Double { ExpLog.exp(x) }
