/// The two-point block solve shared by the contact and restitution passes (Box2D 2.x's block solver):
/// the accumulated normal impulses x = (x1, x2) of a two-point manifold that satisfy the linear
/// complementarity problem w = K x + b, x >= 0, w >= 0, x·w = 0, with K = [[k11, k12], [k12, k22]].
/// Cases in Box2D's order: both points push, only the first, only the second, neither.
@inline(__always)
func blockSolve(k11: Double, k12: Double, k22: Double, b1: Double, b2: Double) -> (Double, Double) {
    let det = k11 * k22 - k12 * k12
    let both1 = -(k22 * b1 - k12 * b2) / det, both2 = -(k11 * b2 - k12 * b1) / det
    if both1 >= 0 && both2 >= 0 { return (both1, both2) }
    if -b1 / k11 >= 0 && k12 * (-b1 / k11) + b2 >= 0 { return (-b1 / k11, 0) }
    if -b2 / k22 >= 0 && k12 * (-b2 / k22) + b1 >= 0 { return (0, -b2 / k22) }
    return (0, 0)
}
