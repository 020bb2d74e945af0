import TypewireCore

/// Where a fuzz input comes from.
public enum FuzzSource: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Random bytes: mostly short, mostly ASCII, sometimes anything.
    case randomBytes
    /// Random sequences of JSON tokens, frame keys, frame types and hostile values.
    case jsonish
    /// A valid frame of some type with bytes flipped, inserted, deleted, repeated or cut off.
    case byteMutation
    /// A valid frame of some type with fields dropped, repeated, added, retyped or given hostile values.
    case fieldMutation

    public var description: String { rawValue }
}

/// Makes inputs for the client-frame decoder: almost all of them bad, a few valid by chance.
///
/// Every input is a pure function of the random number generator, so a seeded generator replays a run.
public enum FrameFuzzer {
    /// One input from the given source.
    public static func input(from source: FuzzSource, using rng: inout some RandomNumberGenerator) -> [UInt8] {
        switch source {
        case .randomBytes: randomBytes(using: &rng)
        case .jsonish: jsonish(using: &rng)
        case .byteMutation: ByteMutations.mutate(FuzzSeeds.encoded.randomElement(using: &rng)!, using: &rng)
        case .fieldMutation: FieldMutations.mutate(FuzzSeeds.fields.randomElement(using: &rng)!, using: &rng)
        }
    }

    /// One input from a source picked at random.
    public static func input(using rng: inout some RandomNumberGenerator) -> [UInt8] {
        input(from: FuzzSource.allCases.randomElement(using: &rng)!, using: &rng)
    }

    /// Every seed with each of its fields in turn given each hostile value: a fixed sweep beside the random inputs.
    public static func hostileSweep() -> [[UInt8]] {
        FuzzSeeds.fields.flatMap { fields in
            fields.indices.flatMap { index in
                HostileValues.all.map { value in
                    var fields = fields
                    fields[index].value = value
                    return FieldMutations.object(fields)
                }
            }
        }
    }

    private static func randomBytes(using rng: inout some RandomNumberGenerator) -> [UInt8] {
        let count = Bool.random(using: &rng) ? Int.random(in: 0...64, using: &rng) : Int.random(in: 0...1_024, using: &rng)
        let ascii = Bool.random(using: &rng)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {  // eight bytes a draw: cheaper than one draw a byte
            withUnsafeBytes(of: rng.next()) { bytes += $0 }
        }
        return bytes.prefix(count).map { ascii ? 0x20 + $0 % 95 : $0 }
    }

    /// Values for random objects: keys, frame types and activities as strings, and every hostile value.
    private static let values: [[UInt8]] = {
        let names: [String] = FieldMutations.keys + FieldMutations.types + MemberActivity.Kind.allCases.map(\.rawValue)
        return names.map { Array(FuzzSeeds.quoted($0).utf8) } + HostileValues.all
    }()

    /// Tokens that random JSON-ish text is made of: JSON's punctuation and the values above.
    private static let tokens: [[UInt8]] = ["{", "}", "[", "]", ":", ",", " ", "\"", "\\", "{\"type\":"].map { Array($0.utf8) } + values

    /// Half of the time a soup of tokens; otherwise an object of random keys and values, often with a `type`.
    private static func jsonish(using rng: inout some RandomNumberGenerator) -> [UInt8] {
        if Bool.random(using: &rng) {
            var bytes = Bool.random(using: &rng) ? Array(#"{"type":"#.utf8) : []
            for _ in 0..<Int.random(in: 1...20, using: &rng) {
                bytes += tokens.randomElement(using: &rng)!
            }
            return bytes
        }
        var fields = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
            JSONField(
                key: Array(FuzzSeeds.quoted(FieldMutations.keys.randomElement(using: &rng)!).utf8),
                value: values.randomElement(using: &rng)!)
        }
        if Int.random(in: 0..<4, using: &rng) > 0 {
            let type = FuzzSeeds.quoted(FieldMutations.types.randomElement(using: &rng)!)
            fields.insert(JSONField(key: Array(#""type""#.utf8), value: Array(type.utf8)), at: 0)
        }
        return FieldMutations.object(fields)
    }
}
