// An app imports one module: `import TypewireUI` brings the client and the core's types (`TypewireClient`,
// `TypingLocale`, `ChatMessage`, …) that TypewireUI's own API speaks of.
@_exported import TypewireClient
@_exported import TypewireCore
