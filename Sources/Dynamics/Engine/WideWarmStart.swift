/// The warm start of the contact constraints, colour by colour and four constraints at a time in
/// `SIMD4<Double>` lanes (the constraints of one colour share no moving body, so the lanes never write the
/// same body; a lane whose body does not move writes back the velocity it read). The remainder of each colour
/// and the overflow are warm-started one by one (`warmStartOne`), with the same arithmetic as the lanes.
func warmStartContactsWide(_ constraints: UnsafeMutableBufferPointer<ContactConstraint>,
                           _ s: UnsafeMutablePointer<SolverBody>, dummy: Int, colouring: ContactColouring) {
    colouring.order.withUnsafeBufferPointer { order in
        let n = ContactColouring.colourCount
        for c in 0..<n {
            var k = colouring.starts[c]
            let end = colouring.starts[c + 1]
            while k + 4 <= end {
                warmStartFour(constraints, s, order[k], order[k + 1], order[k + 2], order[k + 3])
                k += 4
            }
            while k < end {
                warmStartOne(constraints[Int(order[k])], s)
                k += 1
            }
        }
        for k in colouring.starts[n]..<order.count {
            warmStartOne(constraints[Int(order[k])], s)
        }
    }
    s[dummy] = SolverBody()
}

@inline(__always)
private func warmStartOne(_ c: ContactConstraint, _ s: UnsafeMutablePointer<SolverBody>) {
    let ia = Int(c.bodyA), ib = Int(c.bodyB)
    let mA = s[ia].invMass, iA = s[ia].invI, mB = s[ib].invMass, iB = s[ib].invI
    var vA = s[ia].v, wA = s[ia].w, vB = s[ib].v, wB = s[ib].w
    let n = c.normal, t = Vec2(n.y, -n.x)
    @inline(__always) func apply(_ p: ConstraintPoint) {
        let P = n * p.normalImpulse + t * p.tangentImpulse
        wA -= iA * p.anchorA.cross(P)
        vA = vA - P * mA
        wB += iB * p.anchorB.cross(P)
        vB = vB + P * mB
    }
    apply(c.p0)
    if c.pointCount > 1 { apply(c.p1) }
    s[ia].v = vA; s[ia].w = wA
    s[ib].v = vB; s[ib].w = wB
}

@inline(__always)
private func warmStartFour(_ cs: UnsafeMutableBufferPointer<ContactConstraint>, _ s: UnsafeMutablePointer<SolverBody>,
                           _ k0: Int32, _ k1: Int32, _ k2: Int32, _ k3: Int32) {
    let c0 = cs[Int(k0)], c1 = cs[Int(k1)], c2 = cs[Int(k2)], c3 = cs[Int(k3)]
    let a0 = Int(c0.bodyA), a1 = Int(c1.bodyA), a2 = Int(c2.bodyA), a3 = Int(c3.bodyA)
    let b0 = Int(c0.bodyB), b1 = Int(c1.bodyB), b2 = Int(c2.bodyB), b3 = Int(c3.bodyB)
    let mA = SIMD4(s[a0].invMass, s[a1].invMass, s[a2].invMass, s[a3].invMass)
    let iA = SIMD4(s[a0].invI, s[a1].invI, s[a2].invI, s[a3].invI)
    let mB = SIMD4(s[b0].invMass, s[b1].invMass, s[b2].invMass, s[b3].invMass)
    let iB = SIMD4(s[b0].invI, s[b1].invI, s[b2].invI, s[b3].invI)
    var vAx = SIMD4(s[a0].v.x, s[a1].v.x, s[a2].v.x, s[a3].v.x)
    var vAy = SIMD4(s[a0].v.y, s[a1].v.y, s[a2].v.y, s[a3].v.y)
    var wA = SIMD4(s[a0].w, s[a1].w, s[a2].w, s[a3].w)
    var vBx = SIMD4(s[b0].v.x, s[b1].v.x, s[b2].v.x, s[b3].v.x)
    var vBy = SIMD4(s[b0].v.y, s[b1].v.y, s[b2].v.y, s[b3].v.y)
    var wB = SIMD4(s[b0].w, s[b1].w, s[b2].w, s[b3].w)
    let nx = SIMD4(c0.normal.x, c1.normal.x, c2.normal.x, c3.normal.x)
    let ny = SIMD4(c0.normal.y, c1.normal.y, c2.normal.y, c3.normal.y)
    @inline(__always) func apply(_ p0: ConstraintPoint, _ p1: ConstraintPoint, _ p2: ConstraintPoint,
                                 _ p3: ConstraintPoint) {
        let ni = SIMD4(p0.normalImpulse, p1.normalImpulse, p2.normalImpulse, p3.normalImpulse)
        let ti = SIMD4(p0.tangentImpulse, p1.tangentImpulse, p2.tangentImpulse, p3.tangentImpulse)
        // P = n * normalImpulse + t * tangentImpulse with t = (n.y, -n.x).
        let px = nx * ni + ny * ti
        let py = ny * ni - nx * ti
        let rAx = SIMD4(p0.anchorA.x, p1.anchorA.x, p2.anchorA.x, p3.anchorA.x)
        let rAy = SIMD4(p0.anchorA.y, p1.anchorA.y, p2.anchorA.y, p3.anchorA.y)
        let rBx = SIMD4(p0.anchorB.x, p1.anchorB.x, p2.anchorB.x, p3.anchorB.x)
        let rBy = SIMD4(p0.anchorB.y, p1.anchorB.y, p2.anchorB.y, p3.anchorB.y)
        wA -= iA * (rAx * py - rAy * px)
        vAx -= px * mA
        vAy -= py * mA
        wB += iB * (rBx * py - rBy * px)
        vBx += px * mB
        vBy += py * mB
    }
    apply(c0.p0, c1.p0, c2.p0, c3.p0)
    // A one-point constraint's second point holds zero impulses, so applying it changes nothing.
    apply(c0.p1, c1.p1, c2.p1, c3.p1)
    s[a0].v = Vec2(vAx[0], vAy[0]); s[a0].w = wA[0]
    s[a1].v = Vec2(vAx[1], vAy[1]); s[a1].w = wA[1]
    s[a2].v = Vec2(vAx[2], vAy[2]); s[a2].w = wA[2]
    s[a3].v = Vec2(vAx[3], vAy[3]); s[a3].w = wA[3]
    s[b0].v = Vec2(vBx[0], vBy[0]); s[b0].w = wB[0]
    s[b1].v = Vec2(vBx[1], vBy[1]); s[b1].w = wB[1]
    s[b2].v = Vec2(vBx[2], vBy[2]); s[b2].w = wB[2]
    s[b3].v = Vec2(vBx[3], vBy[3]); s[b3].w = wB[3]
}
