import HummingbirdCore
import Logging
import NIOCore

/// A server child channel that puts a ``RequestHeadGuard`` in front of another's pipeline.
struct GuardedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let maxHeadBytes: Int
    let headTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadGuard(maxBytes: maxHeadBytes, timeout: headTimeout))
        }.flatMap {
            base.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
