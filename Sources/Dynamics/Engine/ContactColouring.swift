/// The step's contact constraints sorted into colours (Box2D v3's constraint graph, rebuilt each step): no two
/// constraints of one colour share a body that moves (a slot of zero inverse mass, such as the static dummy that
/// stands for static, sleeping and boundary bodies, is never written by the solver, so it does not count). The
/// constraints of one colour are therefore independent and are solved side by side in SIMD lanes; what fits
/// no colour goes to the overflow, solved one by one after the colours. The colouring is a pure function of the
/// contact order, so runs stay bit-reproducible.
struct ContactColouring {
    /// Colours tried before a constraint overflows.
    static let colourCount = 24

    /// One active contact: its id, solver slots and colour (`colourCount` = overflow), in contact order.
    struct Entry {
        var contact: Int32
        var slotA: Int32
        var slotB: Int32
        var colour: Int32
    }

    var entries: [Entry] = []
    /// Constraints per colour (index `colourCount`: the overflow).
    var counts: [Int] = []
    /// Per colour, how many constraints the prepare stage has placed so far.
    var fill: [Int] = []
    /// Per slot, the colours its constraints already use (joints first, then contacts).
    var bodyMasks: [UInt32] = []

    /// Clears the per-slot colour sets for `slots` slots (the awake bodies and the dummy).
    mutating func reset(slots: Int) {
        bodyMasks.removeAll(keepingCapacity: true)
        bodyMasks.append(contentsOf: repeatElement(0, count: slots))
    }

    /// The colour for a constraint between slots `a` and `b` (`moves*`: the slot's velocity may change), marked
    /// as used on the moving slots. Two moving bodies take the lowest colour free on both; one moving body the
    /// highest colour free on it (Box2D's split, which leaves the low colours to the dynamic pairs that need
    /// them most); `colourCount` when none is free (overflow).
    @inline(__always) mutating func take(_ a: Int, _ b: Int, movesA: Bool, movesB: Bool) -> Int {
        let n = ContactColouring.colourCount
        let full: UInt32 = n >= 32 ? ~0 : (1 << UInt32(n)) - 1
        if movesA && movesB {
            let free = ~(bodyMasks[a] | bodyMasks[b]) & full
            guard free != 0 else { return n }
            let colour = free.trailingZeroBitCount
            bodyMasks[a] |= 1 << UInt32(colour)
            bodyMasks[b] |= 1 << UInt32(colour)
            return colour
        }
        let i = movesA ? a : b
        let free = ~bodyMasks[i] & full
        guard free != 0 else { return n }
        let colour = 31 - free.leadingZeroBitCount
        bodyMasks[i] |= 1 << UInt32(colour)
        return colour
    }

    /// Colours every contact of `ids` (the world's `awakeContacts`) with points and a moving body, in that
    /// order. Call `reset` first (joints may have taken colours already).
    mutating func colour(_ contacts: UnsafeMutableBufferPointer<Contact>, ids: UnsafeBufferPointer<Int32>,
                         _ b: SolverBodies, solverSlot: UnsafeBufferPointer<Int32>) {
        let n = ContactColouring.colourCount
        entries.removeAll(keepingCapacity: true)
        counts.removeAll(keepingCapacity: true)
        counts.append(contentsOf: repeatElement(0, count: n + 1))
        @inline(__always) func add(_ k: Int) {
            guard contacts[k].pointCount > 0 else { return }
            let ia = b.slot(contacts[k].bodyA, solverSlot), ib = b.slot(contacts[k].bodyB, solverSlot)
            let movesA = b.mass[ia].moves, movesB = b.mass[ib].moves
            guard movesA || movesB else { return }
            let colour = take(ia, ib, movesA: movesA, movesB: movesB)
            entries.append(Entry(contact: Int32(k), slotA: Int32(ia), slotB: Int32(ib), colour: Int32(colour)))
            counts[colour] += 1
        }
        for k in ids { add(Int(k)) }
    }
}
