import Testing
import TypewireTesting
import TypewireUI

/// Alice sends "Up?" in her direct conversation with bob; her bubble says "Sent" while no device of bob's
/// has it, "Delivered" once his screen (`openBobs`) has it, and "Seen by Bob" once his rows were on screen.
@MainActor
func expectSentThenDeliveredThenSeen(_ alices: ConversationModel, openBobs: () async -> ConversationModel) async throws {
    await alices.appear()
    alices.draft = "Up?"
    await alices.send()
    try await eventually { alices.lastOwnStoredItemID != nil }
    let mine = try #require(alices.lastOwnStoredItemID)
    try await eventually { alices.statusText(for: mine) == "Sent" }
    #expect(alices.progress(of: mine) == .sent)
    let bobs = await openBobs()
    try await eventually { alices.statusText(for: mine) == "Delivered" }
    let his = try #require(bobs.messages.first)
    #expect(alices.progress(of: mine) == .delivered && bobs.progress(of: his.id) == nil, "none for another's message")
    for item in bobs.messages { bobs.rowAppeared(item.id) }
    try await eventually { alices.statusText(for: mine) == "Seen by Bob" }
    #expect(alices.progress(of: mine) == .read)
    await alices.disappear()
    await bobs.disappear()
}
