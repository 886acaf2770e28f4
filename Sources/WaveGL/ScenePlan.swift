import WaveCore

/// How the GL backend draws a scene, decided without a context: the layers
/// grouped into batches (one draw each), each batch's coverage pictures, and
/// whether the driver's limits (`GLCapabilities`) allow them. Pure values,
/// so it is unit-tested with made-up limits.
///
/// - Consecutive repeating-curve layers with the same paint, motion and grid
///   whose bands do not overlap (a table of cells) form one batch: a per-row
///   table tells the shader which picture, shift and row each scene row shows.
///   Bands whose samples and height are equal share one picture (a layer of
///   a texture array); their whole-pixel shifts differ.
struct ScenePlan {
    struct CurveBatch {
        /// Distinct pictures, each rebased to rows 0..<n and shift 0.
        var pictures: [RepeatingCurve] = []
        var pictureRows = 0
        var period: Int
        var samplesPerPixel: Int
        /// Per scene row: (picture, shift, row in band), nil where no band is.
        var rowEntries: [(picture: Int, shift: Int, row: Int)?]
    }

    struct Batch {
        var curves: CurveBatch
        var paint: Fill
        var motion: Motion
        /// The scene's layers it draws, in order.
        var layers: [Int]
    }

    let batches: [Batch]
    let pages: Pages

    init(scene: Scene, caps: GLCapabilities) throws {
        pages = try Pages(width: scene.width, height: scene.height, caps: caps, what: "frame")
        var batches: [Batch] = []
        var occupied: [Bool] = []
        var index: [PictureKey: Int] = [:]
        for (i, layer) in scene.layers.enumerated() {
            switch layer.content {
            case let .repeatingCurve(curve):
                if var last = batches.last, last.paint == layer.paint,
                   last.motion == layer.motion, last.curves.period == curve.period,
                   last.curves.samplesPerPixel == curve.samplesPerPixel, !curve.rows.contains(where: { occupied[$0] }) {
                    Self.add(curve, to: &last.curves, occupied: &occupied, index: &index)
                    last.layers.append(i)
                    batches[batches.count - 1] = last
                } else {
                    var batch = CurveBatch(period: curve.period, samplesPerPixel: curve.samplesPerPixel,
                                           rowEntries: Array(repeating: nil, count: scene.height))
                    occupied = Array(repeating: false, count: scene.height)
                    index = [:]
                    Self.add(curve, to: &batch, occupied: &occupied, index: &index)
                    batches.append(Batch(curves: batch, paint: layer.paint, motion: layer.motion, layers: [i]))
                }
            }
        }
        self.batches = batches
        try checkLimits(caps)
    }

    private struct PictureKey: Hashable {
        let rows: Int
        let samples: [Double]
    }

    private static func add(_ curve: RepeatingCurve, to batch: inout CurveBatch, occupied: inout [Bool],
                            index: inout [PictureKey: Int]) {
        let key = PictureKey(rows: curve.rows.count, samples: curve.samples)
        let picture = index[key] ?? {
            var rebased = curve
            rebased.rows = 0..<curve.rows.count
            rebased.shift = 0
            batch.pictures.append(rebased)
            index[key] = batch.pictures.count - 1
            return batch.pictures.count - 1
        }()
        batch.pictureRows = max(batch.pictureRows, curve.rows.count)
        for row in curve.rows {
            occupied[row] = true
            batch.rowEntries[row] = (picture, curve.shift, row - curve.rows.lowerBound)
        }
    }

    private func checkLimits(_ caps: GLCapabilities) throws {
        let bytes = batches.reduce(0) { total, batch in
            let c = batch.curves
            return total + c.period * c.pictureRows * c.pictures.count
        }
        guard bytes <= caps.maxCoverageBytes else {
            throw GLError.limit(what: "\(bytes) bytes of cached coverage (the backend's memory budget)",
                                needed: bytes, available: caps.maxCoverageBytes)
        }
        for batch in batches {
            let c = batch.curves
            guard c.period <= caps.maxTextureSize, c.pictureRows <= caps.maxTextureSize else {
                throw GLError.limit(what: "a \(c.period)x\(c.pictureRows) coverage picture (GL_MAX_TEXTURE_SIZE)",
                                    needed: max(c.period, c.pictureRows), available: caps.maxTextureSize)
            }
            guard c.pictures.count <= caps.maxArrayLayers else {
                throw GLError.limit(what: "\(c.pictures.count) distinct band pictures (GL_MAX_ARRAY_TEXTURE_LAYERS)",
                                    needed: c.pictures.count, available: caps.maxArrayLayers)
            }
        }
    }
}

extension ScenePlan.CurveBatch {
    /// One RGBA float texel per scene row (picture, shift, row in band, 1 if
    /// a band is there), `width` texels a texture row, padded to whole rows.
    func rowTable(width: Int) -> [Float] {
        let textureRows = max(1, (rowEntries.count + width - 1) / width)
        var table = [Float](repeating: 0, count: textureRows * width * 4)
        for (row, entry) in rowEntries.enumerated() {
            guard let entry else { continue }
            table[row * 4] = Float(entry.picture)
            table[row * 4 + 1] = Float(entry.shift)
            table[row * 4 + 2] = Float(entry.row)
            table[row * 4 + 3] = 1
        }
        return table
    }

    /// Every picture's coverage (bytes, rows top to bottom), one after
    /// another, each `pictureRows` tall: rasterised at offset 0 by the CPU
    /// rasteriser, so the pixels are the CPU strategy's.
    ///
    /// With `phases` above 1, each picture at every sub-pixel phase j/phases
    /// (exact motion): picture p's phase j is layer p * phases + j.
    func coverage(phases: Int = 1) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: period * pictureRows * pictures.count * phases)
        for (index, picture) in pictures.enumerated() {
            let rasterizer = try CoverageRasterizer(width: period, height: picture.rows.count)
            for phase in 0..<phases {
                let slot = index * phases + phase
                picture.addOutline(offset: Double(phase) / Double(phases), width: period, to: rasterizer)
                bytes.withUnsafeMutableBufferPointer { buffer in
                    var sink = CoverageBytes(rowZero: buffer.baseAddress! + slot * period * pictureRows, rowStride: period)
                    rasterizer.resolve(rows: 0..<picture.rows.count, into: &sink)
                }
            }
        }
        return bytes
    }
}
