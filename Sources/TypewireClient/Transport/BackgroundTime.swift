#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// The time iOS gives an app to run once it leaves the foreground (iOS suspends an app a few seconds
    /// after, unless it asks): UIKit's background task, begun for the background's grace and ended with it.
    ///
    /// Compiled on iOS only: this repository's CI runs on Linux, where it is not built, so it is kept to a
    /// few lines to review by eye. `UIApplication.beginBackgroundTask(withName:expirationHandler:)` and
    /// `endBackgroundTask(_:)` (iOS 4), main actor only: requests reach the main actor in order through one
    /// stream. `MainActor.assumeIsolated` (iOS 17) in the expiration handler, which UIKit calls on the main
    /// thread and which must end the task before it returns.
    final class BackgroundTime: Sendable {
        private let requests: AsyncStream<(@Sendable () -> Void)?>.Continuation

        init() {
            let (stream, continuation) = AsyncStream.makeStream(of: (@Sendable () -> Void)?.self)
            requests = continuation
            Task { @MainActor in
                let held = Held()
                for await expiring in stream {
                    if let expiring {
                        guard held.task == .invalid else { continue }
                        held.task = UIApplication.shared.beginBackgroundTask(withName: "Typewire: the background's grace") {
                            MainActor.assumeIsolated {
                                expiring()
                                held.end()
                            }
                        }
                    } else {
                        held.end()
                    }
                }
            }
        }

        /// Asks for background time; `expiring` runs if the system takes it back first.
        func begin(expiring: @escaping @Sendable () -> Void) { requests.yield(expiring) }

        /// Gives the background time back.
        func end() { requests.yield(nil) }

        @MainActor private final class Held {
            var task = UIBackgroundTaskIdentifier.invalid

            func end() {
                guard task != .invalid else { return }
                UIApplication.shared.endBackgroundTask(task)
                task = .invalid
            }
        }
    }

    extension TypewireClient {
        /// Feeds UIKit's background and foreground notifications to ``enterBackground()`` and
        /// ``enterForeground()`` until the returned task is cancelled. iOS only, to review by eye:
        /// `NotificationCenter.addObserver(forName:object:queue:using:)` and UIApplication's
        /// `didEnterBackgroundNotification` and `willEnterForegroundNotification` (iOS 4).
        nonisolated func followAppLifecycle() -> Task<Void, Never>? {
            Task { [weak self] in
                let (events, continuation) = AsyncStream.makeStream(of: Bool.self)  // true: the background
                let center = NotificationCenter.default
                let (background, foreground) = await MainActor.run {
                    (UIApplication.didEnterBackgroundNotification, UIApplication.willEnterForegroundNotification)
                }
                let observers = [
                    center.addObserver(forName: background, object: nil, queue: nil) { _ in continuation.yield(true) },
                    center.addObserver(forName: foreground, object: nil, queue: nil) { _ in continuation.yield(false) },
                ]
                await withTaskCancellationHandler {
                    for await entered in events {
                        if entered { await self?.enterBackground() } else { await self?.enterForeground() }
                    }
                } onCancel: {
                    continuation.finish()
                }
                for observer in observers { center.removeObserver(observer) }
            }
        }
    }
#else
    /// The time the system gives an app in the background: only iOS suspends apps, so elsewhere nothing is
    /// asked.
    final class BackgroundTime: Sendable {
        func begin(expiring: @escaping @Sendable () -> Void) {}
        func end() {}
    }

    extension TypewireClient {
        /// Only iOS has an app lifecycle to follow: elsewhere an app calls ``enterBackground()`` and
        /// ``enterForeground()`` itself.
        nonisolated func followAppLifecycle() -> Task<Void, Never>? { nil }
    }
#endif
