import AutographCrypto
public import AutographJSON
package import HTTPClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decisions answered by the host's backend over HTTP (`autograph serve --decisions URL`): each
/// question is POSTed to ``url`` as JSON, signed with a secret the server and the backend share,
/// and the backend's answer comes back in the response.
///
/// The request: `POST URL` with `Content-Type: application/json`, the body ``HostQuestion/json``
/// (`{"decision", "documentID", "arguments"}`) and two header fields:
/// - `X-Autograph-Timestamp`: the time of sending, in whole seconds since 1970 (UTC);
/// - `X-Autograph-Signature`: `sha256=` and the lowercase hex of HMAC-SHA-256 (RFC 2104) keyed with
///   the secret over the timestamp, a full stop and the body's exact bytes (`TIMESTAMP.BODY`).
///
/// A backend recomputes the HMAC over the bytes it received, compares it in constant time, and
/// refuses a timestamp more than a few minutes from its own clock: the timestamp is signed so a
/// request someone recorded cannot be sent again later (a replay) without its signature failing.
///
/// The answer: status 200 (any 2xx) with a JSON object `{"answer": …, "configuration": {…}}`
/// (`configuration` optional, as in `POST /api/configuration`). Anything else — another status (a
/// redirect is not followed), a body that is not a JSON object or is larger than
/// ``maxAnswerSize``, no answer within ``timeout``, no connection — is no answer: the seed's
/// default applies, and one line to standard error says why. A notification (`expectsAnswer`
/// false) is sent the same way; whatever comes back is ignored.
public struct HTTPDecisions: DecisionChannel {
    /// The largest answer read (1 MiB): a longer one is cut off and is no answer.
    public static let maxAnswerSize = 1 << 20
    /// The fewest bytes a secret may have.
    public static let minimumSecretLength = 16

    /// Where the questions go: an `http` or `https` URL.
    public let url: String
    /// How long a question waits for the backend's answer, connecting included.
    public let timeout: Duration
    private let secret: [UInt8]
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Int
    private let log: @Sendable (String) -> Void

    /// Questions POSTed to `url`, signed with `secret`, each waiting at most `timeout`; `log`
    /// receives one line each time the default applies (standard error by default).
    /// - Throws: `WebError` (400 `badRequest`) when `url` is not an `http` or `https` URL with a host,
    ///   or `secret` has fewer than ``minimumSecretLength`` bytes.
    public init(
        url: String, secret: [UInt8], timeout: Duration = .seconds(60),
        log: @escaping @Sendable (String) -> Void = HTTPDecisions.standardError
    ) throws(WebError) {
        try self.init(url: url, secret: secret, timeout: timeout, transport: CurlTransport(), log: log)
    }

    /// The same, sending through `transport` with the clock `now` (seconds since 1970).
    package init(
        url: String, secret: [UInt8], timeout: Duration, transport: any HTTPTransport,
        now: @escaping @Sendable () -> Int = { time(nil) }, log: @escaping @Sendable (String) -> Void
    ) throws(WebError) {
        guard HTTPClientRequest.isHTTP(url) else {
            throw .badRequest("the decisions URL must be an http or https URL with a host, not \(url)")
        }
        guard secret.count >= Self.minimumSecretLength else {
            throw .badRequest("the decisions secret must have at least \(Self.minimumSecretLength) bytes")
        }
        guard timeout > .zero else { throw .badRequest("the decisions timeout must be positive") }
        self.url = url
        self.secret = secret
        self.timeout = timeout
        self.transport = transport
        self.now = now
        self.log = log
    }

    /// Writes `line` and a newline to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// `X-Autograph-Signature`'s value for `body` sent at `timestamp`: `sha256=` and the hex of
    /// HMAC-SHA-256(`secret`, `TIMESTAMP.BODY`); nil when the HMAC cannot be computed.
    public static func signature(secret: [UInt8], timestamp: Int, body: [UInt8]) -> String? {
        guard let code = try? HMAC.authenticationCode(key: secret, message: Array("\(timestamp).".utf8) + body) else {
            return nil
        }
        return "sha256=" + SessionJSON.hex(code)
    }

    /// ``timeout``: a step's questions share it (see ``DecisionChannel/stepTimeout``).
    public var stepTimeout: Duration? { timeout }

    /// Sends `question`; the backend's reply object, or nil (the default) with one line logged.
    public func ask(_ question: HostQuestion) async -> JSONValue? {
        var wait = question.remaining(of: timeout)
        // A notification still goes out, with a second for it, whatever the step has spent.
        if !question.expectsAnswer { wait = max(wait, min(timeout, .seconds(1))) }
        guard wait > .milliseconds(10) else {
            return fallBack(question, "the step's \(timeout) for the host's answers has passed")
        }
        let body = Array(question.json.serialized().utf8)
        let timestamp = now()
        guard let signature = Self.signature(secret: secret, timestamp: timestamp, body: body) else {
            return fallBack(question, "the request could not be signed (HMAC failed)")
        }
        var request = HTTPClientRequest(
            .post, url,
            headers: [
                ("Content-Type", "application/json"), ("Accept", "application/json"),
                ("X-Autograph-Timestamp", String(timestamp)), ("X-Autograph-Signature", signature),
            ], body: body)
        request.timeout = wait
        request.connectTimeout = min(wait, .seconds(10))
        request.maxResponseSize = Self.maxAnswerSize
        let response: HTTPClientResponse
        do throws(HTTPClientError) {
            response = try await transport.send(request)
        } catch {
            return fallBack(question, error.message)
        }
        guard response.isSuccess else {
            return fallBack(question, "the backend answered \(response.status)" + Self.excerpt(response.body))
        }
        guard question.expectsAnswer else { return nil }
        guard let reply = try? JSONValue.parse(response.body) else {
            return fallBack(question, "the backend's answer is not JSON" + Self.excerpt(response.body))
        }
        guard case .object = reply else {
            return fallBack(question, "the backend's answer is not a JSON object")
        }
        return reply
    }

    /// Logs why `question` got no answer; nil.
    private func fallBack(_ question: HostQuestion, _ reason: String) -> JSONValue? {
        let outcome = question.expectsAnswer ? "the default applies" : "a notification, not delivered"
        log("decisions: \(question.name): \(reason); \(outcome)")
        return nil
    }

    /// `: ` and the start of `body` as printable text (at most 120 characters), or nothing.
    private static func excerpt(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(480), as: UTF8.self).unicodeScalars
            .map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) }
        let line = String(String(text.prefix(120)).drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        return line.isEmpty ? "" : ": " + line
    }
}
