// libFuzzer target: SVG path data (PathData.parse), built by `make fuzz`
// into the WaveEffects module with PathData.swift and Outline.swift over an
// instrumented WaveCore. Any input is refused with one line, or is a path
// whose every point is finite, drawn by the CPU renderer as an outline.
import Foundation
import WaveCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPathData(_ start: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: size), as: UTF8.self)
    let path: Path
    do {
        path = try PathData.parse(text)
    } catch {
        let line = "\(error)"
        precondition(!line.contains("\n") && !line.contains("\r"), "not one line: \(line)")
        return 0
    }
    if let b = path.bounds { precondition(b.minX.isFinite && b.minY.isFinite && b.maxX.isFinite && b.maxY.isFinite) }
    // Drawn as the outline scene draws it, in a small frame.
    guard let scene = try? Outline(width: 48, height: 24, path: path).scene() else { return 0 }
    let renderer = CPURenderer()
    do {
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        try renderer.draw(time: 0.5, into: target)
    } catch {
        fatalError("an outline scene that validated does not draw: \(error)")
    }
    return 0
}
