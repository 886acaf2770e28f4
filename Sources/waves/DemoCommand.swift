import ArgumentParser
import Foundation
import WaveCore
import WaveGL
import WaveImageIO

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show the two strategies side by side (until the window lands: render the default scene to a PNG)."
    )

    @Option(help: "Where to write the picture.")
    var out = "waves-demo.png"

    func run() throws {
        try OutputPaths.checkFile(out)
        let renderer = CPURenderer()
        try renderer.prepare(scene: Scene(width: 800, height: 200))
        try renderer.draw(time: 0.25)
        try PNG.write(try renderer.readback(), to: out)
        print("wrote \(out): the default scene at t = 0.25 s, drawn by the CPU strategy")
    }
}
