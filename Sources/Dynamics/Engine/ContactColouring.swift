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
    /// them most), unless `lowest`; `colourCount` when none is free (overflow). Joints are coloured first and
    /// with `lowest`, so that on every body its joints come before its contacts in the colour sweep (a rod
    /// gives way to a wall, as when all joints were solved before all contacts).
    @inline(__always) mutating func take(_ a: Int, _ b: Int, movesA: Bool, movesB: Bool, lowest: Bool = false) -> Int {
        bodyMasks.withUnsafeMutableBufferPointer {
            ContactColouring.take($0, a, b, movesA: movesA, movesB: movesB, lowest: lowest)
        }
    }

    @inline(__always) static func take(_ bodyMasks: UnsafeMutableBufferPointer<UInt32>, _ a: Int, _ b: Int,
                                       movesA: Bool, movesB: Bool, lowest: Bool) -> Int {
        let n = ContactColouring.colourCount
        let full: UInt32 = n >= 32 ? ~0 : (1 << UInt32(n)) - 1
        if movesA && movesB || lowest {
            let mask = (movesA ? bodyMasks[a] : 0) | (movesB ? bodyMasks[b] : 0)
            let free = ~mask & full
            guard free != 0 else { return n }
            let colour = free.trailingZeroBitCount
            if movesA { bodyMasks[a] |= 1 << UInt32(colour) }
            if movesB { bodyMasks[b] |= 1 << UInt32(colour) }
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
        // Locals for the loop (no uniqueness check per write on `self`'s arrays), moved back at the end.
        var list: [Entry] = [], perColour: [Int] = [], masks: [UInt32] = []
        swap(&list, &entries); swap(&perColour, &counts); swap(&masks, &bodyMasks)
        defer { swap(&list, &entries); swap(&perColour, &counts); swap(&masks, &bodyMasks) }
        list.removeAll(keepingCapacity: true)
        list.reserveCapacity(ids.count)
        perColour.removeAll(keepingCapacity: true)
        perColour.append(contentsOf: repeatElement(0, count: n + 1))
        perColour.withUnsafeMutableBufferPointer { perColour in
        masks.withUnsafeMutableBufferPointer { masks in
            for id in ids {
                let k = Int(id)
                guard contacts[k].pointCount > 0 && !contacts[k].passes else { continue }
                let ia = b.slot(contacts[k].bodyA, solverSlot), ib = b.slot(contacts[k].bodyB, solverSlot)
                let movesA = b.mass[ia].moves, movesB = b.mass[ib].moves
                guard movesA || movesB else { continue }
                let colour = ContactColouring.take(masks, ia, ib, movesA: movesA, movesB: movesB, lowest: false)
                list.append(Entry(contact: Int32(k), slotA: Int32(ia), slotB: Int32(ib), colour: Int32(colour)))
                perColour[colour] += 1
            }
        }
        }
    }
}
