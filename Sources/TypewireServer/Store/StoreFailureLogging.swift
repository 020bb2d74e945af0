import Logging

extension Logger {
    /// Logs a store call that failed, with its error: at error level, unless the store was closed under the call
    /// (its threads stopped: the server is stopping, and the socket that asked is gone or going), which is
    /// expected and logged at debug.
    func storeFailed(_ message: @autoclosure () -> Logger.Message, error: any Error, metadata: Logger.Metadata = [:]) {
        var metadata = metadata
        metadata["error"] = "\(error)"
        log(level: error is CancellationError ? .debug : .error, message(), metadata: metadata)
    }
}
