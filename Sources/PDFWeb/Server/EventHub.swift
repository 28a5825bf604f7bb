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

    /// A new subscription, with `first` queued before anything else (the current phase).
    func subscribe(first: [UInt8]) -> EventSubscription {
        let subscription = EventSubscription { [weak self] gone in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(gone)) }
        }
        subscription.send(first)
        subscribers.withLock { $0[ObjectIdentifier(subscription)] = subscription }
        return subscription
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
