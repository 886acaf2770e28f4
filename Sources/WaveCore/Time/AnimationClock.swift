/// Scene time from measured wall time, with pause and resume that keep the
/// phase: after a pause the wave continues from where it stopped.
public struct AnimationClock: Sendable {
    /// Scene time when the clock last resumed (or was made).
    private var sceneTimeAtResume: Double
    /// Wall time of the last resume; nil while paused.
    private var resumedAtWall: Double?

    public init(startingAt sceneTime: Double = 0, wallNow: Double, paused: Bool = false) {
        sceneTimeAtResume = sceneTime
        resumedAtWall = paused ? nil : wallNow
    }

    public var isPaused: Bool { resumedAtWall == nil }

    public func time(atWall now: Double) -> Double {
        guard let resumed = resumedAtWall else { return sceneTimeAtResume }
        return sceneTimeAtResume + (now - resumed)
    }

    public mutating func pause(atWall now: Double) {
        guard !isPaused else { return }
        sceneTimeAtResume = time(atWall: now)
        resumedAtWall = nil
    }

    public mutating func resume(atWall now: Double) {
        guard isPaused else { return }
        resumedAtWall = now
    }

    public mutating func toggle(atWall now: Double) {
        if isPaused { resume(atWall: now) } else { pause(atWall: now) }
    }
}
