/// What a command does with an input it could not read whole (audio whose
/// decoding stopped early, an animation using what Waves does not draw):
/// by default it warns once and draws what was read; under `--strict` it
/// refuses (exit 65, nothing written). Set once by the command line.
package enum InputPolicy {
    nonisolated(unsafe) package static var strict = false
}
