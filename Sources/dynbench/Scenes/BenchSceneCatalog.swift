/// Every scene of `dynbench physics`, by command-line name: dyn's own pyramid and rain (the Box2D harness
/// has them too) and Box2D v3's benchmark scenes.
enum BenchSceneCatalog {
    static let all: [any BenchScene.Type] = [
        PyramidScene.self, RainScene.self, LargePyramidScene.self, ManyPyramidsScene.self, JointGridScene.self,
        TumblerScene.self, SmashScene.self, SpinnerScene.self, BounceScene.self,
    ]

    static var names: [String] { all.map { $0.name } }

    static func scene(named name: String) -> (any BenchScene.Type)? { all.first { $0.name == name } }
}
