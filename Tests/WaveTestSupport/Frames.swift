import WaveCore

/// Draws frames through the renderer protocol, as every command does.
public enum Frames {
    /// `scene` prepared on `renderer`, drawn into a target of its own at each time.
    public static func render(_ renderer: Renderer, _ scene: Scene, at times: [Double]) throws -> [RGBAImage] {
        try renderer.prepare(scene: scene)
        let target = try renderer.makeTarget()
        return try times.map { t in
            try renderer.draw(time: t, into: target)
            return try target.readback()
        }
    }
}
