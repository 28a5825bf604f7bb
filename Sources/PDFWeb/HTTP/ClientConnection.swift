import Synchronization

/// The connection a request came on, as its handler sees it: whether the client is still there,
/// and work to stop when it leaves (a tile's render, a search).
///
/// The server watches the socket while the handler runs and calls ``markGone()`` once the client
/// has closed it; handlers register what to stop with ``onGone(_:)``.
public final class ClientConnection: Sendable {
    private let state = Mutex<(gone: Bool, handlers: [@Sendable () -> Void])>((false, []))

    /// A connection that is still open.
    public init() {}

    /// Whether the client closed the connection.
    public var isGone: Bool { state.withLock { $0.gone } }

    /// Runs `handler` when the client leaves (at once if it has left already).
    public func onGone(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { value -> Bool in
            if value.gone { return true }
            value.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// The client left: runs the registered handlers once.
    public func markGone() {
        let handlers = state.withLock { value -> [@Sendable () -> Void] in
            guard !value.gone else { return [] }
            value.gone = true
            defer { value.handlers = [] }
            return value.handlers
        }
        for handler in handlers { handler() }
    }
}
