import TypewireCore

/// The simulator's draws.
extension SplitMix64 {
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
