import CGL
import Foundation
import WaveCore

/// Sole clips that scroll together, copied as one band: a table's cells,
/// one column span and rows one after another, each showing the same loop
/// a whole number of pixels (its lead) ahead of the first. Each clip's
/// picture is turned by its lead (its columns rotated by the loop's period
/// in pixels), so that at every frame where the clips keep together, every
/// clip reads from the first clip's column: one copy for all of them.
///
/// Nothing is assumed about the content: a band is kept only where every
/// turned picture equals its clip's own picture at every column the two can
/// be read from, checked pixel for pixel at every phase when painted, and a
/// frame uses it only where every clip is at the first's phase and whole
/// pixels plus its lead (`GLClipCopies.prepareFrame`).
extension GLClipCopies {
    final class Band {
        /// Each clip's lead in whole pixels (0 for the first), from the top one down.
        let leads: [Int]
        /// The loop's travel in whole pixels: a clip's x and that x less the period show the same.
        let period: Int
        let rows: Range<Int>
        let columns: Range<Int>
        /// Path x of the band's column 0 (as the clips' pictures), and its width.
        let originX: Int
        let width: Int
        /// Per slot: its picture and its first row in the band.
        private let slots: [(picture: Int, top: Int, rows: Int)]
        /// The whole pixels a clip's x can take at each phase.
        let wholes: [ClosedRange<Int>]
        private let pixmap: Pixmap
        private(set) var textures: [GLuint]
        private(set) var framebuffers: [GLuint]

        /// The most a band may take, all phases. A frame reads the whole band's width of rows from it where the
        /// clips' own pictures are shared (cells of one height and fraction) and stay in the caches: on llvmpipe
        /// one copy of 100 cells of 320x80 from a 330 MB band cost 1.8x their 100 copies from 16 MB of pictures.
        static let budget = 64 << 20

        /// Nil where the clips do not tile one band moving alike, or the band is over the driver's limits or `budget` bytes.
        /// `clips` from the top one down, with their pictures.
        init?(clips: [(clip: SoleClip, picture: Int)], pictures: [Picture.Key], evaluator: LayerTreeEvaluator, phases: Int,
              caps: GLCapabilities, budget: Int) {
            guard clips.count >= 2 else { return nil }
            let sorted = clips.map(\.clip)
            let top = sorted[0]
            guard let range = top.xRange else { return nil }
            let key = pictures[clips[0].picture]
            let span = range.upperBound - range.lowerBound
            guard span >= 1, span < 1e9, span == span.rounded() else { return nil }
            for (above, below) in zip(sorted, sorted.dropFirst()) where above.rows.upperBound != below.rows.lowerBound { return nil }
            var slots: [(picture: Int, top: Int, rows: Int)] = []
            for (clip, picture) in clips {
                guard clip.columns == top.columns, clip.xRange == range, pictures[picture].originX == key.originX,
                      pictures[picture].width == key.width else { return nil }
                slots.append((picture, clip.rows.lowerBound - top.rows.lowerBound, clip.rows.count))
            }
            let rows = top.rows.lowerBound..<sorted[sorted.count - 1].rows.upperBound
            guard key.width <= caps.maxTextureSize, rows.count <= caps.maxTextureSize,
                  key.width * rows.count * 4 * phases <= budget else { return nil }
            // Leads at time 0: every clip at the first's phase.
            let xs = sorted.map { evaluator.x(of: $0, at: 0) }
            guard xs.allSatisfy(\.isFinite) else { return nil }
            let splits = xs.map { SubpixelPhases.split($0, phases: phases) }
            guard splits.allSatisfy({ $0.phase == splits[0].phase }) else { return nil }
            period = Int(span)
            leads = splits.map { SubpixelPhases.wrapped($0.whole - splits[0].whole, Int(span)) }
            self.rows = rows
            columns = top.columns
            originX = key.originX
            width = key.width
            self.slots = slots
            // The whole pixels x can take at each phase (x to the nearest 1/phases, whole + phase/phases), and the first
            // clip's columns from them: the column is columns' first - whole - originX.
            let nearest = Int((range.lowerBound * Double(phases)).rounded())...Int((range.upperBound * Double(phases)).rounded())
            wholes = (0..<phases).map { phase in
                Int((Double(nearest.lowerBound - phase) / Double(phases)).rounded(.up))...Int((Double(nearest.upperBound - phase) / Double(phases)).rounded(.down))
            }
            for whole in wholes {
                guard columns.lowerBound - whole.upperBound - originX >= 0,
                      columns.upperBound - whole.lowerBound - originX <= width else { return nil }
            }
            pixmap = Pixmap(width: width, height: rows.count, rowStride: -width)
            textures = Array(repeating: 0, count: phases)
            framebuffers = Array(repeating: 0, count: phases)
            glGenTextures(GLsizei(phases), &textures)
            glGenFramebuffers(GLsizei(phases), &framebuffers)
        }

        deinit {
            glDeleteFramebuffers(GLsizei(framebuffers.count), &framebuffers)
            glDeleteTextures(GLsizei(textures.count), &textures)
        }

        /// The band at `phase` from the clips' pictures just painted (`stacked`, each picture at its top row), uploaded;
        /// false where a turned picture differs from its own anywhere both can be read (the clips do not loop alike).
        func paint(phase: Int, from stacked: PixmapView, pictureTops: [Int]) throws -> Bool {
            let band = pixmap.view
            let firstColumns = (columns.lowerBound - wholes[phase].upperBound - originX)...(columns.lowerBound - wholes[phase].lowerBound - originX)
            var filled = [Bool](repeating: false, count: width)
            for (s, slot) in slots.enumerated() {
                for k in filled.indices { filled[k] = false }
                // When the first clip reads column c, this one reads c - lead - m * period of its own picture, for the m
                // that keeps it in range: band column j holds picture column j + shift, where both reads agree.
                for m in -2...2 {
                    let shift = -(leads[s] + m * period)
                    let first = Swift.max(firstColumns.lowerBound, firstColumns.lowerBound - shift)
                    let last = Swift.min(firstColumns.upperBound, firstColumns.upperBound - shift)
                    guard first <= last else { continue }
                    var j = first
                    let end = last + columns.count
                    while j < end {
                        let wasFilled = filled[j]
                        var runEnd = j
                        while runEnd < end && filled[runEnd] == wasFilled { runEnd += 1 }
                        for r in 0..<slot.rows {
                            let source = stacked.row(pictureTops[slot.picture] + r) + (j + shift), target = band.row(slot.top + r) + j
                            if wasFilled {
                                if memcmp(source, target, (runEnd - j) * 4) != 0 { return false }
                            } else {
                                target.update(from: source, count: runEnd - j)
                            }
                        }
                        for k in j..<runEnd { filled[k] = true }
                        j = runEnd
                    }
                }
            }
            try GLClipCopies.upload(pixmap, into: textures[phase], framebuffer: framebuffers[phase])
            return true
        }
    }
}
