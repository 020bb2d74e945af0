import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import TypewireNATS

/// A node's cluster bus in two steps: the sink the hub publishes to (made before the hub), then the bus's
/// service (made with the hub, to which it applies what the other nodes send).
struct ClusterParts {
    /// Where the hub's events go.
    let sink: any ClusterSink
    private let makeBus: (Hub) -> any Service

    init(
        _ configuration: ClusterConfiguration, client: PostgresClient, node: String, payloads: ClusterPayload, metrics: ClusterMetrics,
        group: any EventLoopGroup, logger: Logger
    ) throws {
        func roster(_ hub: Hub) -> ClusterRoster {
            ClusterRoster(client: client, hub: hub, node: node, configuration: configuration, logger: logger)
        }
        if var natsConfiguration = configuration.nats {
            natsConfiguration.name = natsConfiguration.name ?? "typewire node \(node)"
            let receiver = NATSClusterReceiver(payloads: payloads, metrics: metrics, logger: logger)
            let nats = try NATSClient(configuration: natsConfiguration, eventLoopGroup: group, logger: logger, onMessage: receiver.receive)
            let natsSink = NATSClusterSink(
                nats: nats, payloads: payloads, metrics: metrics, eventLoop: group.next(), logger: logger)
            sink = natsSink
            makeBus = { hub in
                let roster = roster(hub)
                receiver.attach(hub: hub, roster: roster)
                return NATSClusterBus(nats: nats, sink: natsSink, roster: roster, logger: logger)
            }
        } else {
            let (queue, envelopes) = NotifyQueue.make(metrics: metrics, logger: logger)
            sink = queue
            makeBus = { hub in
                PostgresClusterBus(
                    client: client, roster: roster(hub), outgoing: envelopes, payloads: payloads, metrics: metrics, logger: logger)
            }
        }
    }

    /// The bus's service, applying what the other nodes send to this hub.
    func bus(hub: Hub) -> any Service {
        makeBus(hub)
    }
}
