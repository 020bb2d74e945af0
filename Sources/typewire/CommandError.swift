/// A command-line failure with a message a person can act on (printed without the usage text).
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
