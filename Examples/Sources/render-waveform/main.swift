// render-waveform: an audio file's waveform, drawn by the CPU renderer, to a PNG.
//
//   render-waveform AUDIO OUT.png [WIDTHxHEIGHT] [SECONDS]
//
// The same scene as `waves render waveform --audio AUDIO --size WIDTHxHEIGHT
// --time SECONDS --backend cpu` (default 800x200 at 0 s), the same pixels.
import Foundation
import WavesKit

let arguments = Array(CommandLine.arguments.dropFirst())
let size = arguments.count > 2 ? arguments[2].split(separator: "x").compactMap { Int($0) } : [800, 200]
let time = arguments.count > 3 ? Double(arguments[3]) : 0
guard (2...4).contains(arguments.count), size.count == 2, let time else {
    FileHandle.standardError.write(Data("usage: render-waveform AUDIO OUT.png [WIDTHxHEIGHT] [SECONDS]\n".utf8))
    exit(64)
}

do {
    let scene = try Waveform(width: size[0], height: size[1]).scene(from: AudioTrack(path: arguments[0]))
    let renderer = CPURenderer()
    try renderer.prepare(scene: scene)
    let frame = try renderer.makeTarget()
    try renderer.draw(time: time, into: frame)
    try PNG.write(frame, to: arguments[1])
} catch {
    FileHandle.standardError.write(Data("render-waveform: \(error)\n".utf8))
    exit(1)
}
