// libFuzzer target: Lottie files (LottieAnimation), built by `make fuzz`
// into the WaveLottie module with its sources over instrumented WaveCore
// and WaveImageIO libraries. Any input is refused with one line of Waves'
// own, or is a scene the CPU renderer draws in a small frame at two times,
// then at the second twice more (its still outlines kept, then played).
import Foundation
import WaveCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLottie(_ start: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: size))
    let scene: Scene
    do {
        scene = try LottieAnimation(bytes: bytes).scene(width: 32, height: 32, background: RGBA8(255, 255, 255)).scene
    } catch {
        let line = "\(error)"
        precondition(!line.contains("\n") && !line.contains("\r"), "not one line: \(line)")
        return 0
    }
    let renderer = CPURenderer()
    do {
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        for t in [0, 0.7, 0.7, 0.7] { try renderer.draw(time: t, into: target) }
    } catch {
        // A tree the renderer refuses (a layer out of range) is one line too.
        let line = "\(error)"
        precondition(!line.contains("\n"), "not one line: \(line)")
    }
    return 0
}
