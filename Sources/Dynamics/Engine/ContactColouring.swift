/// The step's contact constraints sorted into colours (Box2D v3's constraint graph, rebuilt each step): no two
/// constraints of one colour share a body that moves (a body of zero inverse mass, such as the static dummy, a
/// sleeping or a kinematic body, is never written by the solver, so it does not count). The constraints of one
/// colour are therefore independent and can be solved side by side in SIMD lanes; what fits no colour goes to
/// the overflow, solved one by one afterwards.
struct ContactColouring {
    /// Colours tried before a constraint overflows.
    static let colourCount = 24

    /// Constraint indices colour by colour; `starts[c]..<starts[c + 1]` is colour `c`, and
    /// `starts[colourCount]..<order.count` the overflow.
    var order: [Int32] = []
    var starts: [Int] = []
    private var bodyMasks: [UInt32] = []
    private var colourOf: [UInt8] = []
    private var counts: [Int] = []

    /// Colours `constraints` greedily in their order: a constraint between two moving bodies takes the lowest
    /// colour free on both, one with a single moving body the highest colour free on it (Box2D's split, which
    /// leaves the low colours to the dynamic pairs that need them most).
    mutating func build(_ constraints: UnsafeMutableBufferPointer<ContactConstraint>,
                        _ s: UnsafeMutablePointer<SolverBody>, bodySlots: Int) {
        let n = ContactColouring.colourCount
        bodyMasks.removeAll(keepingCapacity: true)
        bodyMasks.append(contentsOf: repeatElement(0, count: bodySlots))
        colourOf.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        counts.append(contentsOf: repeatElement(0, count: n + 1))
        let full: UInt32 = n >= 32 ? ~0 : (1 << UInt32(n)) - 1
        for k in 0..<constraints.count {
            let ia = Int(constraints[k].bodyA), ib = Int(constraints[k].bodyB)
            let movesA = s[ia].invMass > 0 || s[ia].invI > 0
            let movesB = s[ib].invMass > 0 || s[ib].invI > 0
            var colour = n
            if movesA && movesB {
                let free = ~(bodyMasks[ia] | bodyMasks[ib]) & full
                if free != 0 {
                    colour = free.trailingZeroBitCount
                    bodyMasks[ia] |= 1 << UInt32(colour)
                    bodyMasks[ib] |= 1 << UInt32(colour)
                }
            } else {
                let i = movesA ? ia : ib
                let free = ~bodyMasks[i] & full
                if free != 0 {
                    colour = 31 - free.leadingZeroBitCount
                    bodyMasks[i] |= 1 << UInt32(colour)
                }
            }
            colourOf.append(UInt8(colour))
            counts[colour] += 1
        }
        starts.removeAll(keepingCapacity: true)
        var at = 0
        for c in 0...n {
            starts.append(at)
            at += counts[c]
        }
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: repeatElement(0, count: constraints.count))
        var fill = starts
        for k in 0..<constraints.count {
            let c = Int(colourOf[k])
            order[fill[c]] = Int32(k)
            fill[c] += 1
        }
    }
}
