#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Dynamics

/// dyn's own sine and cosine (Core/Trig.swift) against the C library's over sweeps of arguments: they must
/// agree to within one unit in the last place (both are within about half an ulp of the true value), i.e. a
/// relative difference of at most 2.2·10⁻¹⁶.
@Suite struct TrigTests {
    /// Largest difference in ulps of the reference between `mine` and `reference` over `xs`.
    static func worstUlps(_ xs: [Double], _ mine: (Double) -> Double, _ reference: (Double) -> Double)
        -> (ulps: Double, at: Double) {
        var worst = (ulps: 0.0, at: 0.0)
        for x in xs {
            let r = reference(x), m = mine(x)
            let d = abs(m - r) / r.ulp
            if d > worst.ulps { worst = (d, x) }
        }
        return worst
    }

    /// Deterministic pseudo-random doubles in [−range, range] (a 64-bit LCG, no Foundation).
    static func spread(_ count: Int, range: Double, seed: UInt64) -> [Double] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * range
        }
    }

    static let sweeps: [(name: String, xs: [Double])] = [
        ("evenly over [-10, 10]", (0...200_000).map { -10 + Double($0) * 1e-4 }),
        ("random in [-1e3, 1e3]", spread(100_000, range: 1e3, seed: 1)),
        ("random in [-1.6e6, 1.6e6]", spread(100_000, range: 1.6e6, seed: 2)),
        ("small, 1e-300 ... 1", (0..<3000).map { pow(10, -300 + Double($0) * 0.1) }),
        ("near multiples of pi/4", (1...4000).flatMap { k in
            let x = Double(k) * Double.pi / 4
            return [x.nextDown, x, x.nextUp]
        }),
    ]

    @Test(.timeLimit(.minutes(3)), arguments: sweeps.indices)
    func sineMatchesTheCLibraryWithinOneUlp(sweep: Int) {
        let (name, xs) = Self.sweeps[sweep]
        let worst = Self.worstUlps(xs, Trig.sin, { sin($0) })
        #expect(worst.ulps <= 1, "sine, \(name): \(worst.ulps) ulp at \(worst.at)")
    }

    @Test(.timeLimit(.minutes(3)), arguments: sweeps.indices)
    func cosineMatchesTheCLibraryWithinOneUlp(sweep: Int) {
        let (name, xs) = Self.sweeps[sweep]
        let worst = Self.worstUlps(xs, Trig.cos, { cos($0) })
        #expect(worst.ulps <= 1, "cosine, \(name): \(worst.ulps) ulp at \(worst.at)")
    }

    /// The zeros of sine and cosine closest to doubles: the reduction keeps the tiny results right too.
    @Test(.timeLimit(.minutes(3))) func resultsNearZerosKeepTheirRelativeAccuracy() {
        for k in 1...1000 {
            let x = Double(k) * Double.pi  // sin x is tiny: x differs from kπ by a rounding error
            #expect(abs(Trig.sin(x) - sin(x)) <= sin(x).ulp, "sin(\(k)π)")
            let y = (Double(2 * k + 1) * Double.pi / 2)
            #expect(abs(Trig.cos(y) - cos(y)) <= cos(y).ulp, "cos((2·\(k)+1)π/2)")
        }
    }

    @Test(.timeLimit(.minutes(3))) func specialValues() {
        #expect(Trig.sin(0).bitPattern == (0.0).bitPattern)
        #expect(Trig.sin(-0.0).bitPattern == (-0.0).bitPattern)
        #expect(Trig.cos(0) == 1)
        #expect(Trig.cos(-0.0) == 1)
        #expect(Trig.sin(.infinity).isNaN)
        #expect(Trig.cos(-.infinity).isNaN)
        #expect(Trig.sin(.nan).isNaN)
        #expect(Trig.sin(.pi / 2) == 1)
        #expect(Trig.cos(.pi) == -1)
        #expect(Trig.sin(1e-200) == 1e-200)
    }

    /// Beyond the exact reduction range the result is still deterministic, within |x|·2.4·10⁻¹⁶ of libm's.
    @Test(.timeLimit(.minutes(3))) func hugeArgumentsStayCloseAndFinite() {
        for x in [2e6, -3.7e7, 1e9, 1e12, 1.5e15] {
            let s = Trig.sin(x), c = Trig.cos(x)
            #expect(abs(s - sin(x)) <= abs(x) * 2.4e-16 + 1e-15, "sin(\(x))")
            #expect(abs(c - cos(x)) <= abs(x) * 2.4e-16 + 1e-15, "cos(\(x))")
            #expect(abs(s * s + c * c - 1) < 1e-15)
        }
    }

    /// The engine's helpers go through Trig, not the C library.
    @Test(.timeLimit(.minutes(3))) func engineHelpersUseDynsOwnFunctions() {
        for x in Self.spread(1000, range: 100, seed: 3) {
            #expect(sine(x).bitPattern == Trig.sin(x).bitPattern)
            #expect(cosine(x).bitPattern == Trig.cos(x).bitPattern)
            let r = Rot(angle: x)
            #expect(r.s.bitPattern == Trig.sin(x).bitPattern && r.c.bitPattern == Trig.cos(x).bitPattern)
        }
    }
}
