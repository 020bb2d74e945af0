// An app imports one module: `import TypewireClient` brings the core's types (`TypingLocale`,
// `ChatMessage`, `ErrorCode`, …) that the client's API speaks of.
@_exported import TypewireCore
