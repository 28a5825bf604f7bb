import AutographJSON
import Synchronization

/// Decisions answered by the page that embeds the viewer (`Web/embed/autograph-embed.js`): each
/// question goes out as a `decision` event on `/api/events` with an id; the viewer hands it to the
/// host page by `postMessage`, and sends the host's answer back with `POST /api/decisions/ID`.
///
/// With no viewer connected the default applies at once; an unanswered question takes the default
/// after ``timeout``. A viewer that connects (or reloads) while a question waits is sent it again.
final class BrowserDecisions: DecisionChannel {
    private struct Waiting {
        let event: [UInt8]
        let continuation: CheckedContinuation<JSONValue?, Never>
    }

    /// How long a question waits for its answer before the default applies.
    let timeout: Duration
    private let hub: EventHub
    private let waiting = Mutex<[String: Waiting]>([:])

    /// The viewer and the capture only: the answer passes through the person's browser.
    var configurationScope: ConfigurationJSON.Scope { .viewerAndCapture }
    /// ``timeout``: a step's questions share it.
    var stepTimeout: Duration? { timeout }

    init(hub: EventHub, timeout: Duration) {
        self.hub = hub
        self.timeout = timeout
    }

    func ask(_ question: HostQuestion) async -> JSONValue? {
        guard hub.subscriberCount > 0 else { return nil }
        let id = WebServer.randomHex(12)
        guard case .object(let members) = question.json else { return nil }
        let data = JSONValue.object([("id", .string(id))] + members)
        let event = Array("event: decision\ndata: \(data.serialized())\n\n".utf8)
        guard question.expectsAnswer else {
            hub.publish(chunk: event)
            return nil
        }
        let timeout = question.remaining(of: self.timeout)
        guard timeout > .milliseconds(10) else { return nil }
        return await withCheckedContinuation { continuation in
            waiting.withLock { $0[id] = Waiting(event: event, continuation: continuation) }
            hub.publish(chunk: event)
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                _ = self?.answer(id: id, with: nil)
            }
        }
    }

    /// Delivers the answer to question `id`: false when no such question waits (answered already,
    /// timed out, or never asked).
    func answer(id: String, with reply: JSONValue?) -> Bool {
        guard let taken = waiting.withLock({ $0.removeValue(forKey: id) }) else { return false }
        taken.continuation.resume(returning: reply)
        return true
    }

    /// The questions waiting now, as events, for a viewer that connects.
    var waitingEvents: [UInt8] { waiting.withLock { $0.values.flatMap(\.event) } }
}
