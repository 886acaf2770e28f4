import Foundation

/// How much freed memory the process keeps at its heap's top before glibc
/// hands it back to the system. A driver that allocates and frees large
/// blocks inside every frame's GL calls (llvmpipe does, on the drawing
/// thread) otherwise has its pages returned at each free and faulted in
/// again at the next frame: 4479-fireworks.json's GL thread took 1.2 ms a
/// frame that way, 0.31 ms with 64 MiB kept (docs/benchmark.md). What is kept
/// is reused by the next allocation; the process's peak does not change.
package enum HeapTrim {
    /// Keeps up to `bytes` of freed heap resident (glibc's M_TRIM_THRESHOLD,
    /// set through `mallopt` found at run time: Swift's Glibc module does not
    /// declare it). Elsewhere, or where it fails, nothing changes; whether it took is returned.
    @discardableResult
    package static func keepFreed(bytes: Int) -> Bool {
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let trimThreshold: Int32 = -1 // M_TRIM_THRESHOLD in malloc.h
        return unsafeBitCast(address, to: MallOpt.self)(trimThreshold, Int32(clamping: bytes)) == 1
    }
}
