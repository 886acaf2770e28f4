import WaveCore

/// The frame loop's parameters (`FrameLoopSettings`), declared once for the
/// effects that run one: each takes the ones it uses (`parameters.only`,
/// in its registry entry), and their help says what each means per effect.
extension FrameLoopSettings {
    package static let parameters = ParameterList(defaults: FrameLoopSettings(), [
        .number("physics-step", \.physicsStep, 0.0001...0.1, what: "seconds", valueName: "seconds",
                help: "Seconds per step of the fixed-timestep frame loop (jelly: waves demo, bench --preset pacing; crates: each physics step, counted from time 0; ball --driver fixed: the fixed step), a number or a fraction such as 1/120.",
                defaultText: "1/120", fractions: true),
        .whole("max-steps", \.maxSteps, 1...1000, what: "steps",
               help: "Physics steps a frame may run at most in waves demo or bench --preset pacing; the rest of a late frame's time is dropped.",
               scope: .pacedLoop),
        .number("physics-budget", \.physicsBudget, 0...1, above: true, what: "a share of the simulated time", valueName: "share",
                help: "In waves demo or bench --preset pacing: the share of the simulated time physics may take (the chapter's 0.5); over it the step is made coarser (to 1/30 s at most), and frames longer than the refresh lower the frame rate to every 2nd or 3rd refresh.",
                defaultText: "off", scope: .pacedLoop),
        .number("busy", \.busy, 0...1000, what: "milliseconds", valueName: "milliseconds",
                help: "Milliseconds of work on the loop's thread a frame, as layout or a scroll's tracking would do.",
                defaultText: "0", scope: .frameLoop),
        .choice("busy-pattern", \.busyPattern,
                help: "With --busy: every (the work every frame) or tracking (only while tracking: half a second of every two, when a default-mode timer stalls).",
                defaultText: "every", scope: .frameLoop, requires: "busy"),
        .whole("frame-interval", \.frameInterval, 1...3, what: "refreshes",
               help: "Draw every Nth refresh (60, 30 or 20 fps at 60 Hz), as a display link's frameInterval.",
               defaultText: "1", scope: .frameLoop),
    ])
}
