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
    /// The waiting left to the step that asks it (`HostDecisions.stepBudget`): a channel waits
    /// no longer than this, nor than its own timeout; nil: its own timeout alone.
    public var budget: StepBudget?

    /// What is left of the wait for an answer: `timeout`, shortened to the step's budget (zero once
    /// it is spent).
    public func remaining(of timeout: Duration) -> Duration {
        guard let budget else { return timeout }
        return min(timeout, budget.left)
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
    /// How long one step (one request to the server) may wait for answers of this channel that do
    /// not come, all of them together: a step that asks two questions of a host that does not answer
    /// waits this long once, not twice; an answer that comes costs nothing. Nil: no budget but each
    /// answer's own timeout.
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

    /// The waiting the step being answered may still spend on questions the host leaves
    /// unanswered. The router binds one for each request (``withStepBudget(_:)``); a question asked
    /// once it is spent takes its default at once, and a notification is sent with a second's wait.
    @TaskLocal static var stepBudget: StepBudget?

    /// Runs `step` with one budget, ``DecisionChannel/stepTimeout`` long, for every question it asks
    /// (an outer step's, when one is bound, is kept).
    func withStepBudget<T: Sendable>(_ step: () async throws(WebError) -> T) async throws(WebError) -> T {
        guard Self.stepBudget == nil, let timeout = channel.stepTimeout else { return try await step() }
        let result: Result<T, WebError> = await Self.$stepBudget.withValue(StepBudget(timeout)) {
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
        question.budget = Self.stepBudget
        let asked = ContinuousClock.now
        let reply = await channel.ask(question)
        // Only a question the host left unanswered spends the step's waiting.
        if reply == nil, expectsAnswer { question.budget?.spend(ContinuousClock.now - asked) }
        guard let reply, expectsAnswer else { return nil }
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
        // At most 1000 names of at most 1 KiB each: what a form's fields can be.
        return (answer?.arrayValue ?? []).prefix(1000).compactMap(\.stringValue).filter { $0.utf8.count <= 1024 }
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

/// The waiting a step may spend on questions the host leaves unanswered (`HostDecisions.stepBudget`).
public final class StepBudget: Sendable, Equatable {
    /// The same budget (one step's).
    public static func == (lhs: StepBudget, rhs: StepBudget) -> Bool { lhs === rhs }

    private let remaining: Mutex<Duration>

    /// A budget of `total`.
    public init(_ total: Duration) { remaining = Mutex(total) }

    /// What is left (zero once spent).
    public var left: Duration { remaining.withLock { max(.zero, $0) } }

    /// Takes `waited` from what is left.
    func spend(_ waited: Duration) { remaining.withLock { $0 -= waited } }
}
