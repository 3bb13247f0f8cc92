import ArgumentParser
import NetProtocol

/// `dynbench`: the project's performance tester. Each subcommand prints one JSON line per run.
@main
struct DynBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dynbench",
        abstract: "Benchmarks for dyn: physics, codec and server load. Each prints JSON.",
        version: DynVersion.line("dynbench"),
        subcommands: [PhysicsBench.self, CodecBench.self, ServerBench.self, RoomsBench.self, FleetBench.self, LinkCommand.self]
    )
}
