/// Mutations of a frame's bytes that know nothing of JSON: flips, inserts, deletions, cuts and splices.
enum ByteMutations {
    /// Bytes worth inserting: JSON's punctuation, digits, escapes, a NUL and the starts of invalid UTF-8.
    static let interesting: [UInt8] = Array(#"{}[]:,"\ -+.eE019tfn"#.utf8) + [0x00, 0x09, 0x0A, 0x7F, 0x80, 0xC0, 0xED, 0xF4, 0xFF]

    /// Applies one to four random mutations to `bytes`.
    static func mutate(_ bytes: [UInt8], using rng: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            mutateOnce(&bytes, using: &rng)
        }
        return bytes
    }

    private static func mutateOnce(_ bytes: inout [UInt8], using rng: inout some RandomNumberGenerator) {
        let position = Int.random(in: 0...bytes.count, using: &rng)
        let inside = min(position, max(bytes.count - 1, 0))
        switch Int.random(in: 0..<8, using: &rng) {
        case 0 where !bytes.isEmpty:  // flip one bit
            bytes[inside] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
        case 1 where !bytes.isEmpty:  // overwrite a byte with any value
            bytes[inside] = UInt8.random(in: 0...255, using: &rng)
        case 2:  // insert a byte that means something to JSON or UTF-8
            bytes.insert(interesting.randomElement(using: &rng)!, at: position)
        case 3:  // insert a sequence that is not UTF-8
            bytes.insert(contentsOf: HostileValues.invalidUTF8.randomElement(using: &rng)!, at: position)
        case 4:  // delete a run of up to 8 bytes
            bytes.removeSubrange(position..<min(position + Int.random(in: 1...8, using: &rng), bytes.count))
        case 5:  // cut the frame short
            bytes.removeSubrange(position...)
        case 6:  // repeat a run of the frame somewhere else
            let start = Int.random(in: 0...bytes.count, using: &rng)
            let run = bytes[start..<min(start + Int.random(in: 1...16, using: &rng), bytes.count)]
            bytes.insert(contentsOf: run, at: position)
        default:  // splice in part of another seed
            let other = FuzzSeeds.encoded.randomElement(using: &rng)!
            let start = Int.random(in: 0..<other.count, using: &rng)
            bytes.insert(contentsOf: other[start...], at: position)
        }
    }
}
