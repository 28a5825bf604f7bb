import AutographJSON
import Dispatch
import PDFCore
import Synchronization

/// One client's Server-Sent Events: chunks queued by the hub, taken by the connection's thread.
///
/// `next(timeout:)` blocks, so it is only called on libmicrohttpd's connection threads, never on
/// Swift's cooperative pool.
public final class EventSubscription: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var finished = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let onCancel: @Sendable (EventSubscription) -> Void

    init(onCancel: @escaping @Sendable (EventSubscription) -> Void) {
        self.onCancel = onCancel
    }

    /// Queues a chunk (ignored once finished).
    func send(_ chunk: [UInt8]) {
        let queued = state.withLock { state in
            guard !state.finished else { return false }
            state.chunks.append(chunk)
            return true
        }
        if queued { available.signal() }
    }

    /// Ends the stream: the reader gets nil once the queue is empty.
    func finish() {
        state.withLock { $0.finished = true }
        available.signal()
    }

    /// What the reader gets: a chunk, a timeout (send a keep-alive), or the end.
    enum Next: Equatable {
        case chunk([UInt8])
        case timeout
        case end
    }

    /// The next chunk, waiting at most `timeout` seconds.
    func next(timeout: Double) -> Next {
        while true {
            let taken: Next? = state.withLock { state in
                if !state.chunks.isEmpty { return .chunk(state.chunks.removeFirst()) }
                return state.finished ? .end : nil
            }
            if let taken { return taken }
            if available.wait(timeout: .now() + timeout) == .timedOut { return .timeout }
        }
    }

    /// The client went away: the hub forgets this subscription.
    func cancel() {
        finish()
        onCancel(self)
    }
}

/// The fan-out of session events to every connected `EventSource`: each subscriber gets every
/// event sent after it subscribed.
final class EventHub: Sendable {
    private let subscribers = Mutex<[ObjectIdentifier: EventSubscription]>([:])
    /// The streams of each credential (the bearer token, the browser's cookie), oldest first.
    private let byCredential = Mutex<[String: [EventSubscription]]>([:])

    /// A new subscription, with `first` queued before anything else (the current phase).
    func subscribe(first: [UInt8]) -> EventSubscription {
        let subscription = EventSubscription { [weak self] gone in self?.forget(gone) }
        subscription.send(first)
        subscribers.withLock { $0[ObjectIdentifier(subscription)] = subscription }
        return subscription
    }

    /// Counts `subscription` among the streams of `credential`, and ends the oldest of them beyond
    /// `limit`: whoever holds a credential cannot fill the server's connections with streams.
    func limit(_ subscription: EventSubscription, credential: String, to limit: Int) {
        let ended = byCredential.withLock { streams -> [EventSubscription] in
            var list = streams[credential, default: []]
            list.append(subscription)
            let excess = max(0, list.count - max(1, limit))
            let oldest = Array(list.prefix(excess))
            list.removeFirst(excess)
            streams[credential] = list
            return oldest
        }
        for stream in ended { stream.finish() }
    }

    private func forget(_ subscription: EventSubscription) {
        _ = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(subscription)) }
        byCredential.withLock { streams in
            for (credential, list) in streams where list.contains(where: { $0 === subscription }) {
                let rest = list.filter { $0 !== subscription }
                streams[credential] = rest.isEmpty ? nil : rest
            }
        }
    }

    /// Sends one event (`event: NAME` / `data: JSON`) to every subscriber.
    func publish(event name: String, data: JSONValue) {
        publish(chunk: Array("event: \(name)\ndata: \(data.serialized())\n\n".utf8))
    }

    /// Sends a chunk written already (one or more events) to every subscriber.
    func publish(chunk: [UInt8]) {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.send(chunk) }
    }

    var subscriberCount: Int { subscribers.withLock { $0.count } }

    /// Ends every stream (the server stops).
    func finishAll() {
        for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.finish() }
    }
}
