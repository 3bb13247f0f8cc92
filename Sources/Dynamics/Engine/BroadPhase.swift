/// A candidate pair of proxies whose boxes overlap; `a < b`.
struct ProxyPair {
    var a: Int32
    var b: Int32
}

/// Uniform spatial-hash grid rebuilt every step (counting sort into buckets, no allocation once warm).
/// Proxies larger than `bigSpan` cells are tested against every proxy instead (boundaries, huge items).
/// A pair is reported once: in the cell at the maximum of the two boxes' lowest cells. Every overlapping
/// pair with an active proxy is reported, however many items pile up in one cell (no cap: a pile of n items
/// at one point costs n²/2 pairs for as long as it overlaps). Output order depends only on the inputs,
/// never on hashing of Swift collections, so it is deterministic.
struct BroadPhase {
    var cellSize = 100.0
    private var bucketStart: [Int32] = []
    private var bucketFill: [Int32] = []
    private var entryProxy: [Int32] = []
    private var entryCell: [SIMD2<Int32>] = []
    private var cellMin: [SIMD2<Int32>] = []
    private var cellMax: [SIMD2<Int32>] = []
    private var big: [Int32] = []
    private var isBig: [Bool] = []

    static let bigSpan: Int32 = 4
    static let cellLimit = 1e9

    @inline(__always) private func cell(_ v: Double) -> Int32 {
        let c = (v / cellSize).rounded(.down)
        return Int32(max(-Self.cellLimit, min(Self.cellLimit, c.isNaN ? 0 : c)))
    }

    @inline(__always) private static func hash(_ c: SIMD2<Int32>, _ mask: Int) -> Int {
        let h = UInt32(bitPattern: c.x) &* 0x9E37_79B1 ^ UInt32(bitPattern: c.y) &* 0x85EB_CA77
        return Int((h ^ (h >> 15)) & UInt32(truncatingIfNeeded: mask))
    }

    /// Appends every overlapping pair with at least one active proxy to `pairs`.
    mutating func findPairs(_ boxes: UnsafeBufferPointer<AABB>, active: UnsafeBufferPointer<Bool>,
                            into pairs: inout [ProxyPair]) {
        let n = boxes.count
        pairs.removeAll(keepingCapacity: true)
        cellMin.removeAll(keepingCapacity: true)
        cellMax.removeAll(keepingCapacity: true)
        big.removeAll(keepingCapacity: true)
        isBig.removeAll(keepingCapacity: true)
        var entryCount = 0
        for i in 0..<n {
            let b = boxes[i]
            let lo = SIMD2(cell(b.minX), cell(b.minY)), hi = SIMD2(cell(b.maxX), cell(b.maxY))
            cellMin.append(lo)
            cellMax.append(hi)
            let tooBig = hi.x &- lo.x > Self.bigSpan || hi.y &- lo.y > Self.bigSpan
            isBig.append(tooBig)
            if tooBig { big.append(Int32(i)) } else { entryCount += Int((hi.x - lo.x + 1) * (hi.y - lo.y + 1)) }
        }
        var tableSize = 16
        while tableSize < 2 * entryCount { tableSize <<= 1 }
        let mask = tableSize - 1
        bucketStart.removeAll(keepingCapacity: true)
        bucketStart.append(contentsOf: repeatElement(0, count: tableSize + 1))
        for i in 0..<n where !isBig[i] {
            for cy in cellMin[i].y...cellMax[i].y {
                for cx in cellMin[i].x...cellMax[i].x { bucketStart[Self.hash(SIMD2(cx, cy), mask) + 1] += 1 }
            }
        }
        for k in 0..<tableSize { bucketStart[k + 1] += bucketStart[k] }
        bucketFill.removeAll(keepingCapacity: true)
        bucketFill.append(contentsOf: bucketStart[0..<tableSize])
        entryProxy.removeAll(keepingCapacity: true)
        entryProxy.append(contentsOf: repeatElement(0, count: entryCount))
        entryCell.removeAll(keepingCapacity: true)
        entryCell.append(contentsOf: repeatElement(SIMD2(0, 0), count: entryCount))
        for i in 0..<n where !isBig[i] {
            for cy in cellMin[i].y...cellMax[i].y {
                for cx in cellMin[i].x...cellMax[i].x {
                    let c = SIMD2(cx, cy)
                    let h = Self.hash(c, mask)
                    let slot = Int(bucketFill[h])
                    bucketFill[h] += 1
                    entryProxy[slot] = Int32(i)
                    entryCell[slot] = c
                }
            }
        }
        for k in 0..<tableSize {
            let s = Int(bucketStart[k]), e = Int(bucketStart[k + 1])
            if e - s < 2 { continue }
            for u in s..<(e - 1) {
                let p = Int(entryProxy[u]), cu = entryCell[u]
                for w in (u + 1)..<e {
                    let q = Int(entryProxy[w])
                    guard entryCell[w] == cu, p != q, active[p] || active[q] else { continue }
                    let owner = SIMD2(max(cellMin[p].x, cellMin[q].x), max(cellMin[p].y, cellMin[q].y))
                    guard owner == cu, boxes[p].overlaps(boxes[q]) else { continue }
                    pairs.append(p < q ? ProxyPair(a: Int32(p), b: Int32(q)) : ProxyPair(a: Int32(q), b: Int32(p)))
                }
            }
        }
        for g in big {
            let p = Int(g)
            let bp = boxes[p]
            for q in 0..<n where q != p && (!isBig[q] || q > p) && (active[p] || active[q]) {
                guard bp.overlaps(boxes[q]) else { continue }
                pairs.append(p < q ? ProxyPair(a: Int32(p), b: Int32(q)) : ProxyPair(a: Int32(q), b: Int32(p)))
            }
        }
    }
}
