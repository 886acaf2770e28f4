// swift-tools-version:6.0
import PackageDescription

// Two small apps built on Waves as any app would: a dependency on the package
// (here by path) and its library products. `make examples` builds them;
// WavesCLITests.ExampleTests runs them.
let package = Package(
    name: "WavesExamples",
    dependencies: [
        // Named, so the products below find it whatever the checkout's folder is called.
        .package(name: "Waves", path: ".."),
    ],
    targets: [
        // render-waveform IN.wav OUT.png: an audio file's waveform to a PNG (WavesKit, the CPU renderer).
        .executableTarget(name: "render-waveform", dependencies: [.product(name: "WavesKit", package: "Waves")]),
        // gl-window: an effect drawn by the GL renderer into a GLFW window the app opened itself.
        .executableTarget(name: "gl-window", dependencies: [.product(name: "WavesGL", package: "Waves"), "GLFW3"]),
        // The app's own GLFW, found through pkg-config.
        .systemLibrary(name: "GLFW3", pkgConfig: "glfw3", providers: [.apt(["libglfw3-dev"])]),
    ]
)
