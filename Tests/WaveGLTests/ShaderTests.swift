import Foundation
import WaveGL
import WaveTestSupport
import XCTest

/// The shaders: embedded copies in sync, every program compiling, errors with the driver's log.

final class ShaderTests: XCTestCase {
    private var shaderFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Shaders")
    }

    func testEmbeddedShadersMatchTheShadersFolder() throws {
        // The shaders and the files they include (timeline_codes.inc is the offline validator's, made from WaveCore).
        let files = try FileManager.default.contentsOfDirectory(atPath: shaderFolder.path)
            .filter { $0.hasSuffix(".glsl") || ($0.hasSuffix(".inc") && $0 != "timeline_codes.inc") }
        XCTAssertEqual(Set(files), Set(ShaderProgram.sources.keys), "run 'make shaders'")
        for file in files {
            let onDisk = try String(contentsOf: shaderFolder.appendingPathComponent(file), encoding: .utf8)
            XCTAssertEqual(ShaderProgram.sources[file].map { $0 + "\n" }, onDisk, "\(file) is out of date: run 'make shaders'")
        }
    }

    func testEveryProgramCompilesAndLinks() throws {
        let context = try GLRequirement.need("a headless GL context") { try HeadlessGLContext() }
        defer { withExtendedLifetime(context) {} }
        // Every fragment shader with its own vertex shader (the box's is the
        // replicator's copies), or the full-screen quad's.
        let fragments = ShaderProgram.sources.keys.filter { $0.hasSuffix(".frag.glsl") }.sorted()
        XCTAssertFalse(fragments.isEmpty)
        let pairs = ["box.frag.glsl": "copies.vert.glsl", "copies_state.frag.glsl": "layer.vert.glsl"]
        for fragment in fragments {
            let own = pairs[fragment] ?? fragment.replacingOccurrences(of: ".frag.", with: ".vert.")
            let vertex = ShaderProgram.sources[own] == nil ? "layer.vert.glsl" : own
            XCTAssertNoThrow(try ShaderProgram(vertex: vertex, fragment: fragment), fragment)
        }
        XCTAssertNoThrow(try ShaderProgram(vertex: "copies.vert.glsl", fragment: "box.frag.glsl", defines: ["MASKED"]))
        // A mask read in place (coverage_reads.inc's MASK_PICTURE, MASK_POLYGON), by each program that draws under one.
        for read in ["MASK_PICTURE", "MASK_POLYGON"] {
            for defines in [["PICTURE_COVERAGE", "MASKED", read], ["GRADIENT", "MASKED", read]] {
                XCTAssertNoThrow(try ShaderProgram(vertex: "layer.vert.glsl", fragment: "item.frag.glsl", defines: defines), "\(defines)")
            }
            for kinds in [["PICTURES"], ["POLYGONS"], ["PICTURES", "POLYGONS"]] {
                XCTAssertNoThrow(try ShaderProgram(vertex: "instance_runs.vert.glsl", fragment: "instance_runs.frag.glsl",
                                                   defines: kinds + ["MASKED", read]), "\(kinds)")
            }
        }
        for defines in [["LATTICE"], ["LATTICE", "MASKED"], ["LATTICE", "AXIS_ALIGNED"], ["LATTICE", "AXIS_ALIGNED", "MASKED"]] {
            XCTAssertNoThrow(try ShaderProgram(vertex: "layer.vert.glsl", fragment: "box.frag.glsl", defines: defines), "\(defines)")
        }
    }

    func testACompileErrorCarriesTheInfoLog() throws {
        let context = try GLRequirement.need("a headless GL context") { try HeadlessGLContext() }
        defer { withExtendedLifetime(context) {} }
        let vertex = ("layer.vert.glsl", ShaderProgram.sources["layer.vert.glsl"]!)
        let broken = ("broken.frag.glsl", "#version 330 core\nout vec4 c;\nvoid main() { c = undefinedThing; }\n")
        XCTAssertThrowsError(try ShaderProgram(vertex: vertex, fragment: broken)) { error in
            guard case let GLError.shader(name, log) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "broken.frag.glsl")
            XCTAssertTrue(log.contains("undefinedThing"), "the driver's log is not in the error: \(log)")
        }
        XCTAssertThrowsError(try ShaderProgram(vertex: "layer.vert.glsl", fragment: "missing.frag.glsl")) { error in
            XCTAssertTrue("\(error)".contains("missing.frag.glsl"), "\(error)")
        }
    }
}
