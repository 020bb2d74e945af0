/// A small, fast, seedable random number generator (SplitMix64), so that a simulation run is the same
/// on every machine for the same seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one part of a run: the same (seed, stream, substream) always gives the same numbers.
    static func stream(seed: UInt64, _ stream: Int, _ substream: Int = 0) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(stream) &* 0xD1B5_4A32_D192_ED03) ^ (UInt64(substream) &* 0x8CB9_2BA7_2F3D_8DD7))
        return SplitMix64(seed: mixer.next())
    }

    /// A uniform integer in the range.
    mutating func int(_ range: ClosedRange<Int64>) -> Int64 {
        Int64.random(in: range, using: &self)
    }

    /// True with the given probability.
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }
}
