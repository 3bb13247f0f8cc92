#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Dynamics

/// dyn's own e^x and ln x (Core/ExpLog.swift) against the C library's: within one ulp over sweeps.
@Suite struct ExpLogTests {
    @Test(.timeLimit(.minutes(3))) func expMatchesTheCLibraryWithinOneUlp() {
        var worst = (ulps: 0.0, at: 0.0)
        for x in TrigTests.spread(200_000, range: 700, seed: 4) + (0...20_000).map({ -10 + Double($0) * 1e-3 }) {
            let r = exp(x)
            let d = abs(ExpLog.exp(x) - r) / r.ulp
            if d > worst.ulps { worst = (d, x) }
        }
        #expect(worst.ulps <= 1, "exp: \(worst.ulps) ulp at \(worst.at)")
    }

    @Test(.timeLimit(.minutes(3))) func logMatchesTheCLibraryWithinOneUlp() {
        var worst = (ulps: 0.0, at: 0.0)
        let wide = TrigTests.spread(200_000, range: 700, seed: 5).map { exp($0) }
        let nearOne = (0...20_000).map { 0.5 + Double($0) * 7.5e-5 }
        let subnormal = [Double.leastNonzeroMagnitude, Double.leastNormalMagnitude / 1000, Double.leastNormalMagnitude.nextDown]
        for x in wide + nearOne + subnormal {
            let r = log(x)
            let d = r == 0 ? abs(ExpLog.log(x)) : abs(ExpLog.log(x) - r) / r.ulp
            if d > worst.ulps { worst = (d, x) }
        }
        #expect(worst.ulps <= 1, "log: \(worst.ulps) ulp at \(worst.at)")
    }

    /// x^y for the field falloffs the step uses (r from 1 cm to 10 km, falloff 0...16): within 10⁻¹³.
    @Test(.timeLimit(.minutes(3))) func powerMatchesTheCLibraryForFieldFalloffs() {
        for r in TrigTests.spread(2000, range: 1, seed: 6).map({ exp(abs($0) * 14 - 4.6) }) {
            for falloff in [0.5, 1, 2, 3.7, 16] {
                let expected = pow(r, -falloff)
                #expect(abs(power(r, -falloff) - expected) <= 1e-13 * expected, "\(r)^-\(falloff)")
            }
        }
    }

    @Test(.timeLimit(.minutes(3))) func specialValues() {
        #expect(ExpLog.exp(0) == 1)
        #expect(ExpLog.exp(710) == .infinity)
        #expect(ExpLog.exp(-746) == 0)
        #expect(ExpLog.exp(.nan).isNaN)
        #expect(ExpLog.log(1) == 0)
        #expect(ExpLog.log(0) == -.infinity)
        #expect(ExpLog.log(-1).isNaN)
        #expect(ExpLog.log(.infinity) == .infinity)
        #expect(naturalLog(2.5).bitPattern == ExpLog.log(2.5).bitPattern)
        #expect(exponential(2.5).bitPattern == ExpLog.exp(2.5).bitPattern)
    }
}
