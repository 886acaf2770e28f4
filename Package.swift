// swift-tools-version:6.0
import PackageDescription

// Waves: one wave, two ways to animate it (redraw on the CPU every tick, or
// rasterise once and slide a texture on the GPU), measured side by side.
// Apps use the two library products (WavesKit: the scene model, effects,
// audio, PNG and the CPU renderer; WavesGL: the GL renderer as well); the
// `waves` tool, the benchmark and the window reach the modules' `package`
// declarations, which no app sees (docs/architecture.md, "Products").
let package = Package(
    name: "Waves",
    products: [
        .executable(name: "waves", targets: ["waves"]),
        .library(name: "WavesKit", targets: ["WavesKit"]),
        .library(name: "WavesGL", targets: ["WavesGL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation` (make docs): the DocC catalogs in Sources/WavesKit and Sources/WavesGL.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Pure Swift: the layer model, paths, the rasteriser and paint, the
        // renderer protocol and the CPU backend, time and meters.
        .target(name: "CPixelFill"),
        // Polygon booleans through Debian's libpolyclipping (Clipper), behind a C API.
        .target(name: "CPolygonBooleans", linkerSettings: [.linkedLibrary("polyclipping")]),
        .target(name: "WaveCore", dependencies: ["CPixelFill", "CPolygonBooleans"]),
        // One file per effect: its options turned into layers.
        .target(name: "WaveEffects", dependencies: ["WaveCore", "WavePhysics", "WaveLottie", "CStbEasyFont"]),
        // Lottie files (Bodymovin's JSON) read into the layer tree.
        .target(name: "WaveLottie", dependencies: ["WaveCore", "WaveImageIO"]),

        // C libraries from the system, found through pkg-config.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGL", pkgConfig: "gl", providers: [.apt(["libgl-dev"])]),
        .systemLibrary(name: "CEGL", pkgConfig: "egl", providers: [.apt(["libegl-dev"])]),
        .systemLibrary(name: "CGLFW", pkgConfig: "glfw3", providers: [.apt(["libglfw3-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CPortAudio", pkgConfig: "portaudio-2.0", providers: [.apt(["portaudio19-dev"])]),
        // audiowaveform's own libraries, so `waves audiowaveform` gives its bytes and pixels: libmad decodes MP3;
        // libgd draws (its header only: GDLibrary loads it when an image is drawn).
        .systemLibrary(name: "CMad", pkgConfig: "mad", providers: [.apt(["libmad0-dev"])]),
        .systemLibrary(name: "CGD", providers: [.apt(["libgd-dev"])]),
        // Chipmunk 7 (Debian libchipmunk-dev ships no pkg-config file: the module map links it).
        .systemLibrary(name: "CChipmunk", providers: [.apt(["libchipmunk-dev"])]),
        // stb_easy_font (Debian libstb-dev) compiled once behind a two-function C API.
        .target(name: "CStbEasyFont"),
        // Counts heap allocations made on a thread while counting is switched on.
        .target(name: "CMallocCounter"),

        .target(name: "WaveImageIO", dependencies: ["WaveCore", "CPNG"]),
        // Audio in through libsndfile (MP3 through libmad), peaks per bar, audiowaveform's peaks files.
        .target(name: "WaveAudio", dependencies: ["WaveCore", "CSndfile", "CPortAudio", "CMad"]),
        // Rigid bodies in scene pixels through Chipmunk, stepped in fixed steps from time 0.
        .target(name: "WavePhysics", dependencies: ["WaveCore", "CChipmunk"]),
        // The GL backend alone: contexts, limits, shaders, GLRenderer, targets.
        .target(name: "WaveGL", dependencies: ["WaveCore", "CGL", "CEGL", "CGLFW"]),
        // The window: input, the side-by-side controller and its heads-up display.
        .target(name: "WaveWindow", dependencies: ["WaveCore", "WaveGL", "WaveEffects", "WavesKit", "WaveImageIO", "CGL", "CGLFW", "CStbEasyFont"]),
        // Measures any Renderer; GPU timing and uploads reach it through WaveCore's protocols.
        .target(name: "WaveBench", dependencies: ["WaveCore", "WaveImageIO", "WaveAudio", "WaveEffects", "WaveLottie", "WavesKit", "CMallocCounter"]),
        // The products' modules: `import WavesKit` (or `import WavesGL`) brings
        // every module they re-export, and the few types that join two of them.
        // Catalogues: many tracks at once, a manifest's items in shards, the output root and the results log.
        .target(name: "WaveCatalogue", dependencies: ["WaveCore", "WaveAudio", "WaveImageIO", "WaveEffects", "WavesKit", "CGD"]),
        .target(name: "WavesKit", dependencies: ["WaveCore", "WaveEffects", "WaveAudio", "WaveImageIO"]),
        // WavesGL names the modules its documentation links to as well (DocC resolves links in direct dependencies only).
        .target(name: "WavesGL", dependencies: ["WavesKit", "WaveGL", "WaveCore", "WaveEffects", "WaveImageIO"]),
        .executableTarget(
            name: "waves",
            dependencies: [
                "WaveCore", "WaveEffects", "WaveAudio", "WaveImageIO", "WaveGL", "WaveWindow", "WaveBench", "WavesKit", "WaveCatalogue",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Independent references and image comparison shared by the tests.
        .target(name: "WaveTestSupport", dependencies: ["WaveCore", "WaveEffects", "WaveImageIO"], path: "Tests/WaveTestSupport"),
        .testTarget(name: "WaveCoreTests", dependencies: ["WaveCore", "WaveEffects", "WaveImageIO", "WaveTestSupport", "CMallocCounter"]),
        .testTarget(name: "WaveImageIOTests", dependencies: ["WaveCore", "WaveImageIO", "WaveTestSupport"]),
        .testTarget(name: "WaveAudioTests", dependencies: ["WaveAudio", "WaveCore", "WaveEffects", "WaveTestSupport", "CMallocCounter"]),
        .testTarget(name: "WaveGLTests", dependencies: ["WaveCore", "WaveEffects", "WaveGL", "WaveLottie", "WaveWindow", "WaveImageIO", "WaveTestSupport", "CMallocCounter", "CGL"]),
        .testTarget(name: "WaveBenchTests", dependencies: ["WaveBench", "CMallocCounter", "WaveCore", "WaveEffects", "WaveAudio", "WaveGL", "WaveImageIO", "WaveTestSupport"]),
        .testTarget(name: "WavePhysicsTests", dependencies: ["WavePhysics"]),
        .testTarget(name: "WavesCLITests", dependencies: ["WaveCore", "WaveEffects", "WaveAudio", "WaveImageIO", "WaveTestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
