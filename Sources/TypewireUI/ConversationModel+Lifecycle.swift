import TypewireClient

extension ConversationModel {
    /// A screen showing the model appeared: subscribe, and follow typing, messages, presence and replies.
    /// Each appear counts: a model shown in two windows follows the conversation until both have called
    /// ``disappear()``.
    public func appear() async {
        lifecycle.appearances += 1
        await converge()
    }

    /// A screen showing the model went away; once every one has: typing stops, the subscription ends,
    /// nothing keeps running. The draft and the messages stay for the next ``appear()``.
    public func disappear() async {
        lifecycle.appearances = max(0, lifecycle.appearances - 1)
        await converge()
    }

    /// The app went to the background: as ``disappear()``, until ``enterForeground()``.
    public func enterBackground() async {
        lifecycle.isInBackground = true
        await converge()
    }

    /// The app came back: the screen follows the conversation again if it is still on screen.
    public func enterForeground() async {
        lifecycle.isInBackground = false
        await converge()
    }

    /// Brings what is open in line with what the calls so far ask for, on the model's ``ChangeLane``.
    private func converge() async {
        await lane.run { [weak self] in await self?.follow() }
    }

    /// Opens or closes until the model is as the last calls ask (they may change while it waits).
    private func follow() async {
        while let client, lifecycle.wantsOpen != (handle != nil) {
            if lifecycle.wantsOpen { await open(client) } else { await close() }
        }
    }

    private func open(_ client: TypewireClient) async {
        let handle = await client.conversation(conversationID, thread: parentMessageID)
        self.handle = handle
        composer = await handle.composer()
        userID = await client.userID
        isOpen = true
        let messages = messageSource?.messages(of: conversationID) ?? handle.messages
        let connection = await client.states()
        listening = Task { [weak self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await state in connection { await self?.show(state) } }
                group.addTask { for await state in handle.typing { await self?.show(state) } }
                group.addTask { for await message in messages { await self?.receive(message) } }
                group.addTask { for await change in handle.presence { await self?.show(change) } }
                group.addTask { for await part in handle.replies { await self?.receive(part) } }
                group.addTask { for await state in handle.readState { await self?.show(state) } }
                group.addTask { for await members in handle.members { await self?.show(members) } }
            }
        }
        screenActiveChanged(true)
    }

    private func close() async {
        guard let handle else { return }
        screenActiveChanged(false)
        composer?.end()
        composer = nil
        self.handle = nil
        listening?.cancel()
        listening = nil
        botTimer?.cancel()
        botTimer = nil
        announcementTimer?.cancel()
        announcementTimer = nil
        announcer = TypingAnnouncer()
        isOpen = false
        typing = .idle
        if !replying.isEmpty { replying = [:] }
        onlineMembers = []
        bots = BotReplies()
        timeline.endStreams()
        reply = .idle
        replies = []
        await handle.close()
    }
}
