/// Runs a screen model's opening and closing one after another: each change waits for the one before, so
/// they never overlap, and a call returns once its change (or a later one) has run. A caller's
/// cancellation does not stop a change halfway (it runs in a task of its own).
@MainActor
final class ChangeLane {
    private var last: Task<Void, Never>?

    /// Runs `change` after every change already under way; returns once it has run.
    func run(_ change: @escaping @MainActor () async -> Void) async {
        let previous = last
        let next = Task { @MainActor in
            await previous?.value
            await change()
        }
        last = next
        await next.value
    }
}
