import CGL
import WaveCore

/// GPU time per frame from GL_TIME_ELAPSED queries, read a few frames later
/// so that asking never stalls the pipeline. Timer queries cannot nest: use
/// one timer's begin/end around one strategy's work at a time.
package final class GPUTimer: GPUTiming {
    private var queries = [GLuint](repeating: 0, count: 6)
    private var pending = [Bool](repeating: false, count: 6)
    private var next = 0
    /// The first result is dropped: llvmpipe's first query of a context
    /// returned about 3.5e6 ms (seen in `waves bench --warmup 0`).
    private var awaitingFirst = true

    package init() {
        glGenQueries(GLsizei(queries.count), &queries)
    }

    deinit { glDeleteQueries(GLsizei(queries.count), &queries) }

    /// Call `collect` once a frame (after `end`) to receive results; a slot
    /// whose result has not arrived when it is reused loses it.
    package func begin() {
        glBeginQuery(GLenum(GL_TIME_ELAPSED), queries[next])
    }

    package func end() {
        glEndQuery(GLenum(GL_TIME_ELAPSED))
        pending[next] = true
        next = (next + 1) % queries.count
    }

    /// Reads every finished query, oldest first, without waiting; calls
    /// `each` with each result in milliseconds.
    package func collect(_ each: (Double) -> Void) {
        for i in 0..<queries.count {
            let slot = (next + i) % queries.count
            guard pending[slot] else { continue }
            var available: GLint = 0
            glGetQueryObjectiv(queries[slot], GLenum(GL_QUERY_RESULT_AVAILABLE), &available)
            guard available != 0 else { break }
            var nanoseconds: GLuint64 = 0
            glGetQueryObjectui64v(queries[slot], GLenum(GL_QUERY_RESULT), &nanoseconds)
            pending[slot] = false
            if awaitingFirst {
                awaitingFirst = false
                continue
            }
            each(Double(nanoseconds) / 1e6)
        }
    }

    /// Waits for every outstanding query (end of a run, not per frame).
    package func drain(_ each: (Double) -> Void) {
        glFinish()
        collect(each)
    }
}
