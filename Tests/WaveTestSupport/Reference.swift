import Foundation
import WaveCore
import WaveEffects

/// The scene contract computed straight from its formulas, by dense numerical
/// integration, with none of the renderer's code: the independent reference
/// the backends are tested against.
public enum Reference {
    /// Exact in y (the fraction of a pixel's height below the curve is a
    /// clamp), midpoint rule with `samples` columns per pixel in x.
    public static func render(_ scene: SineCells, time: Double, samples: Int = 64) -> RGBAImage {
        var image = RGBAImage(width: scene.width, height: scene.height, fill: scene.background)
        let w = Double(scene.width)
        let u = offset(scene, time)
        for k in 0..<scene.cellCount {
            let top = k * scene.height / scene.cellCount
            let bottom = (k + 1) * scene.height / scene.cellCount
            let hk = Double(bottom - top)
            let phase = Double(k) / Double(scene.cellCount)
            for x in 0..<scene.width {
                // The curve at `samples` points across this pixel column.
                let curve = (0..<samples).map { s -> Double in
                    let px = Double(x) + (Double(s) + 0.5) / Double(samples)
                    let angle = 2 * Double.pi * (Double(scene.wave.cycles) * (px + u) / w + phase)
                    return scene.wave.baseline * hk + scene.wave.amplitude * hk * sin(angle)
                }
                for row in 0..<(bottom - top) {
                    let y0 = Double(row)
                    var covered = 0.0
                    for c in curve { covered += min(1, max(0, y0 + 1 - max(y0, c))) }
                    let coverage = covered / Double(samples)
                    image[x, top + row] = composite(scene.wave.color, coverage, scene.background)
                }
            }
        }
        return image
    }

    /// u(t) as the contract states it.
    public static func offset(_ scene: SineCells, _ t: Double) -> Double {
        let z = t / scene.wave.period
        var u = Double(scene.width) * (z - floor(z))
        if scene.wave.direction == .right { u = -u }
        if scene.snapToPixel { u = floor(u + 0.5) }
        return u
    }

    /// Non-premultiplied source-over, written out again from its definition.
    public static func composite(_ s: RGBA8, _ coverage: Double, _ d: RGBA8) -> RGBA8 {
        let sa = Double(s.a) / 255 * coverage, da = Double(d.a) / 255
        let a = sa + da * (1 - sa)
        guard a > 0 else { return RGBA8(0, 0, 0, 0) }
        func mix(_ sc: UInt8, _ dc: UInt8) -> UInt8 {
            UInt8(((Double(sc) * sa + Double(dc) * da * (1 - sa)) / a).rounded())
        }
        return RGBA8(mix(s.r, d.r), mix(s.g, d.g), mix(s.b, d.b), UInt8((a * 255).rounded()))
    }
}
