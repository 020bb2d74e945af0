#if canImport(Network)
    import Dispatch
    import Network

    /// Compiled on Apple platforms only: this repository's CI runs on Linux, where it is not built, so it is
    /// kept to a few lines to review by eye (`NWPathMonitor`, iOS 12 / macOS 10.14 and later; `NWPath.gateways`,
    /// iOS 13 / macOS 10.15).
    extension TypewireClient {
        /// Feeds `NWPathMonitor`'s updates to ``networkPathUpdated(_:)`` until the returned task is cancelled.
        nonisolated func followNetworkPath() -> Task<Void, Never>? {
            Task { [weak self] in
                let monitor = NWPathMonitor()
                let (paths, continuation) = AsyncStream.makeStream(of: NetworkPath.self, bufferingPolicy: .bufferingNewest(1))
                monitor.pathUpdateHandler = { path in
                    continuation.yield(
                        NetworkPath(
                            isSatisfied: path.status == .satisfied, interfaces: path.availableInterfaces.map(\.name),
                            gateways: path.gateways.map { "\($0)" }))
                }
                monitor.start(queue: DispatchQueue(label: "typewire.network-path"))
                defer { monitor.cancel() }
                for await path in paths { await self?.networkPathUpdated(path) }
            }
        }
    }
#else
    extension TypewireClient {
        /// Off Apple platforms there is no path monitor: an app calls ``networkPathUpdated(_:)`` itself.
        nonisolated func followNetworkPath() -> Task<Void, Never>? { nil }
    }
#endif
