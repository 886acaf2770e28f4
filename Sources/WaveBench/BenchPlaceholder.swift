import WaveCore
