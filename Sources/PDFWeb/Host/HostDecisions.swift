public import AutographJSON
public import PDFCore
public import PDFSession
public import PDFSigning
import Synchronization

/// A decision put to the host, or something it is told: a `SessionDelegate` method's name
/// (`willStartSigning`, `viewerRectConfirmed` …), the document's id and the method's arguments.
public struct HostQuestion: Sendable, Equatable {
    /// The delegate method's name, as docs/web-api.md lists them.
    public var name: String
    /// The document the session is signing.
    public var documentID: String?
    /// The method's arguments (an object).
    public var arguments: JSONValue
    /// False for a notification (`backButtonPressed`, `viewerRectCancelled`): whatever comes back is ignored.
    public var expectsAnswer: Bool
    /// When the step that asks it ends (``HostDecisions/stepDeadline``): a channel waits no longer
    /// than this, nor than its own timeout; nil: its own timeout alone.
    public var deadline: ContinuousClock.Instant?

    /// What is left of the wait for an answer: `timeout`, shortened to the step's deadline
    /// (zero or less once it passed).
    public func remaining(of timeout: Duration) -> Duration {
        guard let deadline else { return timeout }
        return min(timeout, deadline - .now)
    }

    /// A question named `name` with `arguments`.
    public init(name: String, documentID: String?, arguments: JSONValue, expectsAnswer: Bool = true) {
        self.name = name
        self.documentID = documentID
        self.arguments = arguments
        self.expectsAnswer = expectsAnswer
    }

    /// The JSON sent to the host: `{"decision", "documentID", "arguments"}`.
    public var json: JSONValue {
        .object([
            ("decision", .string(name)), ("documentID", documentID.map { .string($0) } ?? .null),
            ("arguments", arguments),
        ])
    }
}

/// Where a host's answers come from: the embedding page (``WebBackend/HostLink/embeddingPage(timeout:)``),
/// the host's backend (``HTTPDecisions``), or none (``NoDecisions``).
public protocol DecisionChannel: Sendable {
    /// The host's answer — an object with `answer` and, optionally, `configuration` (changes
    /// applied before the answer takes effect, as signo lets `willStartSigning` change the capture
    /// configuration) — or nil for the seed's default: no host listening, no answer in time, or an
    /// answer that is not an object.
    func ask(_ question: HostQuestion) async -> JSONValue?
    /// What an answer's `configuration` may change: everything for a host's backend, the viewer and
    /// capture only for an answer that comes through the person's browser.
    var configurationScope: ConfigurationJSON.Scope { get }
    /// How long one step (one request to the server) may wait for this channel's answers, all of
    /// them together: a step that asks two questions of a host that does not answer waits this long
    /// once, not twice. Nil: no deadline but each answer's own.
    var stepTimeout: Duration? { get }
}

extension DecisionChannel {
    /// Everything: a channel of the host's own (its backend, an app in process).
    public var configurationScope: ConfigurationJSON.Scope { .all }
    /// None.
    public var stepTimeout: Duration? { nil }
}

/// The web server's `SessionDelegate`: each decision goes to the host through a ``DecisionChannel``
/// and comes back as the host answered it, or as the seeds' default when it does not answer (in
/// time, or in a form that can be read).
public final class HostDecisions: SessionDelegate {
    /// Where the questions go.
    public let channel: any DecisionChannel
    /// Applies an answer's `configuration` to the session asking: set by the backend.
    private let configure = Mutex<(@Sendable (JSONValue) async -> Void)?>(nil)
    /// The document the questions are about.
    private let documentID = Mutex<String?>(nil)

    /// Decisions asked through `channel`.
    public init(channel: any DecisionChannel) { self.channel = channel }

    /// The end of the step being answered: every question it asks shares this deadline. The router
    /// binds it for each request (``withStepDeadline(_:)``); a question asked after it passed takes
    /// the default at once.
    @TaskLocal static var stepDeadline: ContinuousClock.Instant?

    /// Runs `step` with one deadline, ``DecisionChannel/stepTimeout`` from now, for every question it
    /// asks (an outer step's deadline, when one is bound, is kept).
    func withStepDeadline<T: Sendable>(_ step: () async throws(WebError) -> T) async throws(WebError) -> T {
        guard Self.stepDeadline == nil, let timeout = channel.stepTimeout else { return try await step() }
        let result: Result<T, WebError> = await Self.$stepDeadline.withValue(.now + timeout) {
            do throws(WebError) {
                return .success(try await step())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    func attach(documentID: String?, configure: (@Sendable (JSONValue) async -> Void)?) {
        self.documentID.withLock { $0 = documentID }
        self.configure.withLock { $0 = configure }
    }

    /// The answer's `answer` member, after its `configuration` is applied; nil when the host gave none.
    private func ask(_ name: String, _ arguments: [(String, JSONValue)], expectsAnswer: Bool = true) async
        -> JSONValue?
    {
        var question = HostQuestion(
            name: name, documentID: documentID.withLock { $0 }, arguments: .object(arguments),
            expectsAnswer: expectsAnswer)
        question.deadline = Self.stepDeadline
        guard let reply = await channel.ask(question), expectsAnswer else { return nil }
        if let changes = reply["configuration"], changes != .null, let apply = configure.withLock({ $0 }) {
            await apply(changes)
        }
        return reply["answer"]
    }

    /// Asks `willStartSigning`; true unless the host answers false.
    public func willStartSigning(field: String) async -> Bool {
        await ask("willStartSigning", [("field", .string(field))])?.boolValue ?? true
    }

    /// Asks `signingProcessStarted`: the field names the host answers (strings only), else none.
    public func signingProcessStarted(field: String) async -> [String] {
        let answer = await ask("signingProcessStarted", [("field", .string(field))])
        return (answer?.arrayValue ?? []).compactMap(\.stringValue).prefix(10_000).map { $0 }
    }

    /// Asks `willConfirmSigning`; true unless the host answers false.
    public func willConfirmSigning(field: String) async -> Bool {
        await ask("willConfirmSigning", [("field", .string(field))])?.boolValue ?? true
    }

    /// Asks `computeDigitalSignature` with the digest in hex: the CMS the host answers in Base64,
    /// else nil (the session then waits for `embedSignature`, or cancels in `.delegate` mode).
    public func computeDigitalSignature(digest: [UInt8], algorithm: DigestAlgorithm) async -> [UInt8]? {
        let answer = await ask(
            "computeDigitalSignature",
            [("digest", .string(SessionJSON.hex(digest))), ("algorithm", .string(algorithm.rawValue))])
        // A CMS larger than any reserved /Contents is no answer (the session refuses it anyway).
        guard let text = answer?.stringValue, text.utf8.count <= 4 * 1024 * 1024 else { return nil }
        let cms = Base64.decode(Array(text.utf8))
        return cms.isEmpty ? nil : cms
    }

    /// Asks `documentSaved`; true (grey the button out) unless the host answers false.
    public func documentSaved() async -> Bool {
        await ask("documentSaved", [])?.boolValue ?? true
    }

    /// Asks `signatureInfoPressed`; true (the viewer's own list) unless the host answers false.
    public func signatureInfoPressed() async -> Bool {
        await ask("signatureInfoPressed", [])?.boolValue ?? true
    }

    /// Tells the host `backButtonPressed`.
    public func backButtonPressed() async {
        _ = await ask("backButtonPressed", [], expectsAnswer: false)
    }

    /// Asks `viewerRectConfirmed` (`page` from 0, null off every page); true (hide the rectangle)
    /// unless the host answers false.
    public func viewerRectConfirmed(rect: PDFRectangle, pageIndex: Int?, id: Int) async -> Bool {
        let arguments: [(String, JSONValue)] = [
            ("rect", SessionJSON.rect(rect)), ("page", pageIndex.map { .int($0) } ?? .null), ("id", .int(id)),
        ]
        return await ask("viewerRectConfirmed", arguments)?.boolValue ?? true
    }

    /// Tells the host `viewerRectCancelled`.
    public func viewerRectCancelled(id: Int) async {
        _ = await ask("viewerRectCancelled", [("id", .int(id))], expectsAnswer: false)
    }
}

/// No host: every decision takes the seeds' default at once.
public struct NoDecisions: DecisionChannel {
    /// The channel of a server nobody embeds or drives.
    public init() {}
    /// Nil: the default.
    public func ask(_ question: HostQuestion) async -> JSONValue? { nil }
}
