import Foundation

/// Pixel size as WxH, parsed with a message that says what is accepted.
package struct PixelSize: CustomStringConvertible, Sendable {
    package let width: Int
    package let height: Int

    package init(width: Int, height: Int) { self.width = width; self.height = height }

    package init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        self.init(width: w, height: h)
    }

    package var description: String { "\(width)x\(height)" }

    /// Both sides whole numbers from 1 to `limit`.
    package func validated(option: String = "--size", limit: Int = Scene.maxRenderDimension) throws -> PixelSize {
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            throw ValueError(option: option, value: description,
                             accepted: "WxH with each side a whole number from 1 to \(limit)")
        }
        return self
    }
}
