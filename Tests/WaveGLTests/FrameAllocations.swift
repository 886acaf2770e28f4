import CMallocCounter
import WaveCore

/// Heap allocations a renderer's frames make: prepared for `scene`, two
/// frames drawn to warm it, then four counted at 0.1 s and `step` apart
/// (the thread's own, less what other threads did meanwhile).
func frameAllocations(_ renderer: Renderer, _ scene: Scene, step: Double) throws -> UInt64 {
    try renderer.prepare(scene: scene)
    let target = try renderer.makeTarget()
    try renderer.draw(time: 0.01, into: target)
    try renderer.draw(time: 0.02, into: target)
    var own: UInt64 = 0
    var k = 0
    // A while loop: in a debug build a for-in loop allocates.
    while k < 4 {
        waves_malloc_counter_start()
        try renderer.draw(time: 0.1 + Double(k) * step, into: target)
        renderer.finish()
        own += waves_malloc_counter_stop() - waves_malloc_counter_foreign()
        k += 1
    }
    return own
}
