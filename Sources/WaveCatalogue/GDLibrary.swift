import CGD
import Foundation

/// libgd's calls audiowaveform's images need, found with dlopen the first
/// time an image is drawn: libgd brings some thirty libraries (AVIF, HEIF,
/// x265, AV1, TIFF, WebP, ...) that would cost every `waves` command about 6 ms
/// of start-up if the binary linked it, and a machine without libgd3 still
/// runs everything else (an image then says what to install).
struct GDLibrary {
    typealias Image = gdImagePtr
    let createTrueColor: @convention(c) (Int32, Int32) -> Image?
    let destroy: @convention(c) (Image?) -> Void
    let saveAlpha: @convention(c) (Image?, Int32) -> Void
    let alphaBlending: @convention(c) (Image?, Int32) -> Void
    let colorAllocate: @convention(c) (Image?, Int32, Int32, Int32) -> Int32
    let colorAllocateAlpha: @convention(c) (Image?, Int32, Int32, Int32, Int32) -> Int32
    let filledRectangle: @convention(c) (Image?, Int32, Int32, Int32, Int32, Int32) -> Void
    let rectangle: @convention(c) (Image?, Int32, Int32, Int32, Int32, Int32) -> Void
    let line: @convention(c) (Image?, Int32, Int32, Int32, Int32, Int32) -> Void
    let filledArc: @convention(c) (Image?, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) -> Void
    let string: @convention(c) (Image?, gdFontPtr?, Int32, Int32, UnsafeMutablePointer<UInt8>?, Int32) -> Void
    let pngPtrEx: @convention(c) (Image?, UnsafeMutablePointer<Int32>?, Int32) -> UnsafeMutableRawPointer?
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    /// libgd's built-in small font (6x13), audiowaveform's labels'.
    let smallFont: gdFontPtr

    /// The library, loaded once; or why it could not be.
    static let shared: Result<GDLibrary, GDMissing> = load()

    struct GDMissing: Error { let message: String }

    private static func load() -> Result<GDLibrary, GDMissing> {
        guard let handle = dlopen("libgd.so.3", RTLD_LAZY | RTLD_LOCAL) else {
            return .failure(GDMissing(message: "libgd is not installed (Debian: apt-get install libgd3): \(String(cString: dlerror()))"))
        }
        var missing: [String] = []
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            guard let address = dlsym(handle, name) else { missing.append(name); return nil }
            return unsafeBitCast(address, to: type)
        }
        typealias Box = @convention(c) (Image?, Int32, Int32, Int32, Int32, Int32) -> Void
        let font = symbol("gdFontGetSmall", as: (@convention(c) () -> gdFontPtr?).self)?()
        guard let createTrueColor = symbol("gdImageCreateTrueColor", as: (@convention(c) (Int32, Int32) -> Image?).self),
              let destroy = symbol("gdImageDestroy", as: (@convention(c) (Image?) -> Void).self),
              let saveAlpha = symbol("gdImageSaveAlpha", as: (@convention(c) (Image?, Int32) -> Void).self),
              let alphaBlending = symbol("gdImageAlphaBlending", as: (@convention(c) (Image?, Int32) -> Void).self),
              let colorAllocate = symbol("gdImageColorAllocate", as: (@convention(c) (Image?, Int32, Int32, Int32) -> Int32).self),
              let colorAllocateAlpha = symbol("gdImageColorAllocateAlpha", as: (@convention(c) (Image?, Int32, Int32, Int32, Int32) -> Int32).self),
              let filledRectangle = symbol("gdImageFilledRectangle", as: Box.self),
              let rectangle = symbol("gdImageRectangle", as: Box.self),
              let line = symbol("gdImageLine", as: Box.self),
              let filledArc = symbol("gdImageFilledArc",
                                     as: (@convention(c) (Image?, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) -> Void).self),
              let string = symbol("gdImageString",
                                  as: (@convention(c) (Image?, gdFontPtr?, Int32, Int32, UnsafeMutablePointer<UInt8>?, Int32) -> Void).self),
              let pngPtrEx = symbol("gdImagePngPtrEx", as: (@convention(c) (Image?, UnsafeMutablePointer<Int32>?, Int32) -> UnsafeMutableRawPointer?).self),
              let free = symbol("gdFree", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self),
              let font else {
            return .failure(GDMissing(message: "libgd.so.3 lacks \(missing.joined(separator: ", ")) (libgd 2.1 or later is needed)"))
        }
        return .success(GDLibrary(createTrueColor: createTrueColor, destroy: destroy, saveAlpha: saveAlpha, alphaBlending: alphaBlending,
                                  colorAllocate: colorAllocate, colorAllocateAlpha: colorAllocateAlpha, filledRectangle: filledRectangle,
                                  rectangle: rectangle, line: line, filledArc: filledArc, string: string, pngPtrEx: pngPtrEx, free: free,
                                  smallFont: font))
    }
}
