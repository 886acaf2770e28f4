/// The numbers a timeline is written in where it is evaluated away from
/// this module (the GL strategy's copies, in `Shaders/copies_state.frag.glsl`):
/// one description, made from the CPU's own types here, that WaveGL encodes
/// timelines with and generates the shader's constants from
/// (`TimelineCodeGLSL`), so the two cannot drift apart.
package enum TimelineCode {
    /// What an animation record is.
    package enum Kind: Int, CaseIterable, Sendable {
        case basic = 0, keyframesLinear, keyframesDiscrete, spring, driven

        package init<V>(_ animation: Animation<V>) {
            switch animation {
            case .basic: self = .basic
            case let .keyframes(k): self = k.calculation == .discrete ? .keyframesDiscrete : .keyframesLinear
            case .spring: self = .spring
            case .driven: self = .driven
            }
        }
    }

    /// How a record's timing runs (bits).
    package struct Flags: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        package static let autoreverses = Flags(rawValue: 1)
        package static let fillsBackwards = Flags(rawValue: 2)
        package static let fillsForwards = Flags(rawValue: 4)
        package static let infiniteDuration = Flags(rawValue: 8)
        /// Begun at minus infinity (an endless loop): running at every time, on the parent's clock from 0.
        package static let alwaysRunning = Flags(rawValue: 16)
        /// Every flag, with the name the shader knows it by.
        package static let named: [(String, Flags)] = [("AUTOREVERSES", .autoreverses), ("FILLS_BACKWARDS", .fillsBackwards),
                                                       ("FILLS_FORWARDS", .fillsForwards), ("INFINITE_DURATION", .infiniteDuration),
                                                       ("ALWAYS_RUNNING", .alwaysRunning)]

        package init(_ m: MediaTiming) {
            var flags: Flags = []
            if m.autoreverses { flags.insert(.autoreverses) }
            if m.fillMode == .backwards || m.fillMode == .both { flags.insert(.fillsBackwards) }
            if m.fillMode == .forwards || m.fillMode == .both { flags.insert(.fillsForwards) }
            if m.duration.isInfinite { flags.insert(.infiniteDuration) }
            if m.isAlwaysRunning { flags.insert(.alwaysRunning) }
            self = flags
        }
    }

    /// Which timing function eases a record's progress.
    package enum Function: Int, CaseIterable, Sendable {
        case linear = 0, curve, bounceOut

        package init(_ function: TimingFunction) {
            switch function {
            case let .curve(c): self = c == .linear ? .linear : .curve
            case .bounceOut: self = .bounceOut
            }
        }
    }

    /// Where a driven record's level comes from.
    package enum Source: Int, CaseIterable, Sendable {
        case constant = 0, recorded, live
    }
}
