import TypewireCore

/// Mutations of a frame's fields that keep its object shape: dropped, duplicated, unknown and retyped fields,
/// hostile values, other frame types, and objects wrapped or repeated.
enum FieldMutations {
    /// Keys a frame may carry, and some it may not.
    static let keys: [String] = [
        "type", "token", "conversation", "activity", "detail", "clientMessageId", "messageId", "text", "delta", "final",
        "user", "sub", "", "TYPE", "type\u{0}", "\u{1F600}",
    ]

    /// Values for `type`: every frame type, server-only types and near misses.
    static let types: [String] = ClientFrame.typeNames + ["welcome", "error", "Hello", "SEND", " send", "send ", "", "sen\u{0}d"]

    /// Applies one to three random mutations to a seed's fields and writes them as an object.
    static func mutate(_ fields: [JSONField], using rng: inout some RandomNumberGenerator) -> [UInt8] {
        var fields = fields
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            mutateOnce(&fields, using: &rng)
        }
        return wrap(object(fields), using: &rng)
    }

    private static func mutateOnce(_ fields: inout [JSONField], using rng: inout some RandomNumberGenerator) {
        let index = fields.indices.randomElement(using: &rng)
        switch Int.random(in: 0..<7, using: &rng) {
        case 0 where index != nil:  // give a field a hostile value
            fields[index!].value = HostileValues.all.randomElement(using: &rng)!
        case 1 where index != nil:  // drop a field
            fields.remove(at: index!)
        case 2 where index != nil:  // repeat a field's key with another value
            fields.insert(JSONField(key: fields[index!].key, value: anyValue(using: &rng)), at: index!)
        case 3:  // set the type to another frame's, or to a near miss
            fields.removeAll { $0.key == Array(#""type""#.utf8) }
            let type = FuzzSeeds.quoted(types.randomElement(using: &rng)!)
            fields.insert(JSONField(key: Array(#""type""#.utf8), value: Array(type.utf8)), at: 0)
        case 4:  // add a field, known or not
            fields.append(JSONField(key: Array(FuzzSeeds.quoted(keys.randomElement(using: &rng)!).utf8), value: anyValue(using: &rng)))
        case 5:  // move the fields around
            fields.shuffle(using: &rng)
        default:  // move a field from another seed
            if let field = FuzzSeeds.fields.randomElement(using: &rng)!.randomElement(using: &rng) { fields.append(field) }
        }
    }

    /// A hostile value, or a valid one from some seed.
    private static func anyValue(using rng: inout some RandomNumberGenerator) -> [UInt8] {
        if Bool.random(using: &rng) { return HostileValues.all.randomElement(using: &rng)! }
        return FuzzSeeds.fields.randomElement(using: &rng)!.randomElement(using: &rng)?.value ?? Array("null".utf8)
    }

    /// The fields as a JSON object.
    static func object(_ fields: [JSONField]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += field.key + [UInt8(ascii: ":")] + field.value
        }
        return bytes + [UInt8(ascii: "}")]
    }

    /// Usually the object as it is; sometimes inside an array, twice, padded, or after a byte-order mark.
    private static func wrap(_ object: [UInt8], using rng: inout some RandomNumberGenerator) -> [UInt8] {
        switch Int.random(in: 0..<12, using: &rng) {
        case 0: Array("[".utf8) + object + Array("]".utf8)
        case 1: object + object
        case 2: Array(" \n\t".utf8) + object + Array(" \r\n".utf8)
        case 3: [0xEF, 0xBB, 0xBF] + object
        case 4: object + [0x00]
        default: object
        }
    }
}
