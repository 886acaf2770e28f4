// gl-window: an effect drawn by Waves' GL renderer straight into the default
// framebuffer of a GLFW window this program opened itself.
//
//   gl-window [EFFECT] [--frames N] [--screenshot OUT.png]
//
// EFFECT is one of the registry's (default: sine) but the waveform and the
// outline, which need input files this example does not open.
// Frame i is drawn at scene time i/60 s, each swap paced by the display;
// it runs until the window is closed, or for N frames. --screenshot writes
// the last frame, read back from the window before it is shown.
import Foundation
import GLFW3
import WavesGL

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("gl-window: \(message)\n".utf8))
    exit(status)
}

var effectName = "sine", frames: Int?, screenshot: String?
var rest = CommandLine.arguments.dropFirst()
while let argument = rest.popFirst() {
    switch argument {
    case "--frames":
        frames = rest.popFirst().flatMap { Int($0) }
        if (frames ?? 0) < 1 { fail("--frames takes a count from 1", status: 64) }
    case "--screenshot":
        guard let name = rest.popFirst() else { fail("--screenshot takes a file name", status: 64) }
        screenshot = name
    default: effectName = argument
    }
}
guard let effect = Effects.named(EffectName(rawValue: effectName)) else {
    fail("unknown effect \(effectName) (one of: \(Effects.names.joined(separator: ", ")))", status: 64)
}

// The app's window: an OpenGL 3.3 core context, as the GL renderer needs.
guard glfwInit() == GLFW_TRUE else { fail("glfwInit failed (no display?)") }
defer { glfwTerminate() }
glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
guard let window = glfwCreateWindow(800, 200, "Waves: \(effectName)", nil, nil) else { fail("no OpenGL 3.3 core window") }
glfwMakeContextCurrent(window)
glfwSwapInterval(1)

do {
    // The renderer draws with the window's context; the window's framebuffer (0) is its target.
    let renderer = try GLRenderer(context: AppGLContext(platform: "GLFW window") { glfwMakeContextCurrent(window) })
    var screen = GLFramebufferRegion(framebuffer: 0, viewport: Viewport(x: 0, y: 0, width: 0, height: 0))
    var frame = 0
    while glfwWindowShouldClose(window) == GLFW_FALSE && frame < (frames ?? .max) {
        // A scene the framebuffer's size, made again when the window is resized.
        var width: Int32 = 0, height: Int32 = 0
        glfwGetFramebufferSize(window, &width, &height)
        if Int(width) != screen.width || Int(height) != screen.height {
            let request = SceneRequest(width: Int(width), height: Int(height), count: 0, snapsToPixel: false)
            try renderer.prepare(scene: effect.scene(EffectSettings(), request))
            screen = GLFramebufferRegion(framebuffer: 0, viewport: Viewport(x: 0, y: 0, width: Int(width), height: Int(height)))
        }
        try renderer.draw(time: Double(frame) / 60, into: screen)
        frame += 1
        if frame == frames, let screenshot { try PNG.write(screen.readback(), to: screenshot) }
        glfwSwapBuffers(window)
        glfwPollEvents()
    }
    print("gl-window: \(frame) frames of \(effectName) on \(renderer.rendererName)")
} catch {
    fail("\(error)")
}
