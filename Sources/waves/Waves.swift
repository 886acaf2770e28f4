import ArgumentParser

/// The root command: its subcommands.

struct Waves: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "waves",
        abstract: "Animate a wave two ways (redraw on the CPU every tick, or render once and slide it on the GPU) and measure both.",
        subcommands: [RenderCommand.self, DemoCommand.self, BenchCommand.self, PeaksCommand.self]
    )
}
