import AutographJSON
package import HTTPClient
import Synchronization

/// A client of a remote signing service that speaks the Cloud Signature Consortium API, version 1
/// (1.0.4.0) or 2 (2.0.0.2): what European trust service providers expose for qualified
/// signatures and seals. The key never leaves the service; only hashes travel.
///
/// ```swift
/// let client = try await CSCClient(baseURL: "https://qtsp.example", clientID: "app", clientSecret: secret)
/// for id in try await client.credentialIDs() { print(try await client.credential(id).subject) }
/// ```
///
/// The version is discovered: `POST BASE/csc/v2/info`, else `BASE/csc/v1/info`. The service's
/// `authType` says how requests are authenticated: `external` (nothing to send), `oauth2client`
/// (a token for ``clientID`` and its secret, fetched at once and again when the service says it
/// expired), `basic` (`auth/login` with the client's id and secret), or a bearer token obtained
/// elsewhere (`accessToken`, e.g. from ``CSCOAuth``'s authorization code flow).
///
/// Every answer is bounded (1 MiB, 30 s) and checked before use; a service's error answer
/// (`{"error": …, "error_description": …}`) becomes a `SigningError` with the seed's code:
/// unreachable service −123, refused access, PIN or OTP −125, unknown credential −127, anything
/// else −129.
public final class CSCClient: Sendable {
    /// The API versions.
    public enum Version: String, Sendable, CaseIterable {
        /// CSC API v1 (1.0.3.0, 1.0.4.0): `hash`, `hashAlgo`, `PIN`/`OTP` in `credentials/authorize`.
        case v1
        /// CSC API v2 (2.0.0.x): `hashes`, `hashAlgorithmOID`, `authData`.
        case v2
    }

    /// What what comes before `/csc/v1` or `/csc/v2` (no trailing slash).
    public let baseURL: String
    /// The version the service answered `info` for.
    public let version: Version
    /// The service's `info` answer.
    public let info: CSCServiceInfo
    /// The client's identifier at the service's OAuth 2.0 server, when it has one.
    public let clientID: String?
    let clientSecret: String?
    let transport: any HTTPTransport
    let token: Mutex<String?>
    let requests = Atomic<Int>(0)

    /// The longest one exchange may take.
    static let timeout: Duration = .seconds(30)
    /// The largest answer taken: a credential list or a certificate chain is a few kilobytes.
    static let maxResponseSize = 1 << 20

    /// Connects to the service at `baseURL`: discovers its version and, when it asks for it,
    /// obtains an access token.
    ///
    /// - Parameters:
    ///   - baseURL: what comes before `/csc/v1` or `/csc/v2`, http or https.
    ///   - version: the version to use; nil asks `info` of v2, then of v1.
    ///   - clientID: the client's id at the service's OAuth 2.0 server (`oauth2client`) or its user
    ///     name (`basic`).
    ///   - clientSecret: its secret or password.
    ///   - accessToken: a bearer token obtained elsewhere (an authorization code flow); it is used
    ///     as is and never renewed.
    ///   - allowInsecureHTTP: accept an `http` URL on a host other than loopback (PINs, secrets and
    ///     tokens then travel in clear text).
    /// - Throws: `.invalidArgument` for a URL that is not https (http on loopback, or with
    ///   `allowInsecureHTTP`) or that carries user information; `.keyContainerNotFound`
    ///   (−123) when no CSC service answers; `.wrongKeyContainerPassword` (−125) when the service
    ///   refuses the client's credentials or needs some and none are given.
    public convenience init(
        baseURL: String, version: Version? = nil, clientID: String? = nil, clientSecret: String? = nil,
        accessToken: String? = nil, allowInsecureHTTP: Bool = false
    ) async throws(SigningError) {
        try await self.init(
            baseURL: baseURL, version: version, clientID: clientID, clientSecret: clientSecret,
            accessToken: accessToken, allowInsecureHTTP: allowInsecureHTTP, transport: CurlTransport())
    }

    /// As the public initializer, through `transport` (tests count what is sent).
    package init(
        baseURL: String, version: Version? = nil, clientID: String? = nil, clientSecret: String? = nil,
        accessToken: String? = nil, allowInsecureHTTP: Bool = false, transport: any HTTPTransport
    ) async throws(SigningError) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        guard HTTPClientRequest.isHTTP(base), !base.contains("?"), !base.contains("#"),
            let origin = Self.origin(of: base), !origin.contains("@")
        else {
            throw SigningError(
                .invalidArgument,
                "the signing service's URL must be http or https, without user information: "
                    + CSCClient.clean(String(baseURL.prefix(200))))
        }
        guard origin.hasPrefix("https://") || allowInsecureHTTP || Self.isLoopback(origin) else {
            throw SigningError(
                .invalidArgument,
                "the signing service's URL must be https (PINs, secrets and tokens would travel in clear text): \(origin)"
            )
        }
        self.baseURL = base
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.transport = transport
        self.token = Mutex(accessToken)
        (self.version, self.info) = try await Self.discover(base, version: version, transport: transport)
        if accessToken == nil { try await authenticate() }
    }

    /// How many requests this client has sent (tests and the benchmark count them).
    public var requestCount: Int { requests.load(ordering: .relaxed) }

    // MARK: - Credentials

    /// The credentials the account may use (`credentials/list`), following `nextPageToken` for up
    /// to 10,000 of them.
    /// - Parameter userID: the user whose credentials are listed, when the service authenticates a
    ///   client rather than a user.
    /// - Throws: `SigningError`: −123 unreachable, −125 refused access, −124 an unreadable list, −129 another refusal.
    public func credentialIDs(userID: String? = nil) async throws(SigningError) -> [String] {
        var identifiers: [String] = []
        var seen: Set<String> = []
        var tokens: Set<String> = []
        var pageToken: String?
        var pages = 0
        repeat {
            pages += 1
            var members: [(String, JSONValue)] = [("maxResults", .int(100))]
            if let userID { members.append(("userID", .string(userID))) }
            if let pageToken { members.append(("pageToken", .string(pageToken))) }
            let answer = try await call("credentials/list", .object(members))
            guard let list = answer["credentialIDs"]?.arrayValue else {
                throw SigningError(
                    .keyContainerUnreadable, "the signing service's credential list has no credentialIDs")
            }
            for item in list {
                guard let identifier = item.stringValue, !identifier.isEmpty, identifier.utf8.count <= 1024,
                    identifier.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
                else {
                    throw SigningError(
                        .keyContainerUnreadable, "the signing service listed a credential id that is not printable text"
                    )
                }
                if seen.insert(identifier).inserted { identifiers.append(identifier) }
            }
            guard identifiers.count <= 10_000 else {
                throw SigningError(.keyContainerUnreadable, "the signing service lists more than 10,000 credentials")
            }
            // A token seen before, an empty page or 100 pages end the listing (a service cannot loop it).
            let next = answer["nextPageToken"]?.stringValue
            pageToken = next.flatMap { tokens.insert($0).inserted && !list.isEmpty && pages < 100 ? $0 : nil }
        } while pageToken != nil
        return identifiers
    }

    /// The credential `id` (`credentials/info` with its whole certificate chain).
    /// - Throws: `.noPrivateKey` (−127) when the service does not know it; `.keyContainerUnreadable`
    ///   (−124) when its answer lacks the key or a readable certificate.
    public func credential(_ id: String) async throws(SigningError) -> CSCCredential {
        let members: [(String, JSONValue)] = [
            ("credentialID", .string(id)), ("certificates", .string("chain")), ("authInfo", .bool(true)),
        ]
        let answer = try await call("credentials/info", .object(members), credential: id)
        return try CSCCredential(id: id, answer: answer, version: version)
    }

    /// The Signature Activation Data for signing `hashes` with `credential`
    /// (`credentials/authorize`): bound to exactly these hashes (the service checks it at SCAL 2).
    ///
    /// - Parameters:
    ///   - credential: the credential.
    ///   - hashes: the hashes to be signed.
    ///   - algorithm: their digest algorithm.
    ///   - pin: the credential's PIN, when its authorization mode is explicit and asks for one.
    ///   - otp: its one-time password, when it asks for one.
    /// - Throws: `.wrongKeyContainerPassword` (−125) for a PIN or OTP that is missing, wrong or
    ///   locked; `.noPrivateKey` (−127) for an unknown or disabled credential; `.signingFailed`.
    public func authorize(
        _ credential: CSCCredential, hashes: [[UInt8]], algorithm: DigestAlgorithm, pin: String? = nil,
        otp: String? = nil
    ) async throws(SigningError) -> String {
        if credential.pin == .required, pin == nil {
            throw SigningError(
                .wrongKeyContainerPassword, "the credential \(credential.id) needs its PIN (\(credential.pinLabel))")
        }
        if credential.otp == .required, otp == nil {
            throw SigningError(.wrongKeyContainerPassword, "the credential \(credential.id) needs a one-time password")
        }
        // A PIN or OTP goes only to a credential that asks for it (not to every service the
        // environment's PIN reaches).
        let pin = credential.pin == .none ? nil : pin
        let otp = credential.otp == .none ? nil : otp
        let encoded = JSONValue.array(hashes.map { .string(Base64.encode($0)) })
        var members: [(String, JSONValue)] = [
            ("credentialID", .string(credential.id)), ("numSignatures", .int(hashes.count)),
        ]
        switch version {
        case .v1:
            members += [("hash", encoded)]
            if let pin { members.append(("PIN", .string(pin))) }
            if let otp { members.append(("OTP", .string(otp))) }
        case .v2:
            members += [("hashes", encoded), ("hashAlgorithmOID", .string(algorithm.objectIdentifier.description))]
            var authData: [JSONValue] = []
            if let pin { authData.append(.object([("id", .string(credential.pinID)), ("value", .string(pin))])) }
            if let otp { authData.append(.object([("id", .string(credential.otpID)), ("value", .string(otp))])) }
            if !authData.isEmpty { members.append(("authData", .array(authData))) }
        }
        let answer = try await call("credentials/authorize", .object(members), credential: credential.id)
        guard let sad = answer["SAD"]?.stringValue, !sad.isEmpty, sad.utf8.count <= 65_536 else {
            throw SigningError(.signingFailed, "the signing service's authorization carries no SAD")
        }
        return sad
    }

    /// Raw signatures of `hashes` by `credential` (`signatures/signHash`), in their order.
    ///
    /// - Parameters:
    ///   - hashes: the hashes (of our signed attributes).
    ///   - credential: the credential.
    ///   - algorithm: the hashes' digest algorithm.
    ///   - scheme: the raw signature scheme; it must be one the credential's key offers.
    ///   - sad: the activation data ``authorize(_:hashes:algorithm:pin:otp:)`` returned; nil with
    ///     `credentialToken`.
    ///   - credentialToken: an access token of scope `credential` (authorization mode `oauth2code`),
    ///     sent instead of the client's token.
    /// - Returns: the signatures as the service gives them (PKCS#1 or PSS bytes; ECDSA in DER, or `r‖s`).
    /// - Throws: `.unsupportedAlgorithm` when the key offers no algorithm for `scheme`;
    ///   `.signingFailed` (−129) when the service refuses (a SAD for other hashes, an expired SAD) or
    ///   answers another number of signatures.
    public func signHashes(
        _ hashes: [[UInt8]], credential: CSCCredential, algorithm: DigestAlgorithm, scheme: SignatureScheme,
        sad: String?, credentialToken: String? = nil
    ) async throws(SigningError) -> [[UInt8]] {
        let chosen = try credential.signatureAlgorithm(for: scheme, digest: algorithm)
        let encoded = JSONValue.array(hashes.map { .string(Base64.encode($0)) })
        var members: [(String, JSONValue)] = [("credentialID", .string(credential.id))]
        if let sad { members.append(("SAD", .string(sad))) }
        switch version {
        case .v1: members += [("hash", encoded), ("hashAlgo", .string(algorithm.objectIdentifier.description))]
        case .v2:
            members += [("hashes", encoded), ("hashAlgorithmOID", .string(algorithm.objectIdentifier.description))]
        }
        members.append(("signAlgo", .string(chosen.algorithm.description)))
        if let parameters = chosen.parameters, chosen.algorithm == .rsassaPSS {
            members.append(("signAlgoParams", .string(Base64.encode(parameters))))
        }
        let answer = try await call(
            "signatures/signHash", .object(members), credential: credential.id, bearer: credentialToken)
        guard let list = answer["signatures"]?.arrayValue, list.count == hashes.count else {
            throw SigningError(
                .signingFailed,
                "the signing service answered \(answer["signatures"]?.arrayValue?.count ?? 0) "
                    + "signatures for \(hashes.count) hashes")
        }
        var signatures: [[UInt8]] = []
        for item in list {
            guard let text = item.stringValue, text.utf8.count <= 32_768, let bytes = Self.base64(text),
                !bytes.isEmpty
            else {
                throw SigningError(.signingFailed, "the signing service's signature is not base64 of at most 24 KiB")
            }
            signatures.append(bytes)
        }
        return signatures
    }

    // MARK: - Requests

    /// POSTs `body` to the endpoint `method` (`credentials/list`) and returns the JSON object
    /// answered; a service that says the client's token expired gets one more try with a new token.
    func call(
        _ method: String, _ body: JSONValue, credential: String? = nil, bearer: String? = nil
    ) async throws(SigningError) -> JSONValue {
        var renewed = false
        while true {
            let token = bearer ?? self.token.withLock { $0 }
            let (status, answer) = try await post(
                "\(baseURL)/csc/\(version.rawValue)/\(method)", body, token: token, operation: method)
            if (200..<300).contains(status), case .object = answer { return answer }
            if status == 401, bearer == nil, !renewed, clientSecret != nil, info.authTypes.contains("oauth2client") {
                renewed = true
                try await authenticate()
                continue
            }
            if (200..<300).contains(status) {
                throw SigningError(
                    .keyContainerUnreadable, "the signing service's \(method) answer is not a JSON object")
            }
            throw Self.failure(status: status, body: answer, operation: method, credential: credential)
        }
    }

    /// One POST of JSON; the status and the JSON answered (`.null` when the body is not JSON).
    func post(
        _ url: String, _ body: JSONValue, token: String?, operation: String
    ) async throws(SigningError) -> (Int, JSONValue) {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("Accept", "application/json"),
        ]
        if let token { headers.append(("Authorization", "Bearer " + token)) }
        return try await exchange(HTTPClientRequest(.post, url, headers: headers, body: body.bytes), operation)
    }

    /// Sends `request` bounded in time and size; the status and the JSON answered.
    func exchange(_ request: HTTPClientRequest, _ operation: String) async throws(SigningError) -> (Int, JSONValue) {
        var request = request
        request.timeout = Self.timeout
        request.maxResponseSize = Self.maxResponseSize
        requests.add(1, ordering: .relaxed)
        let response: HTTPClientResponse
        do {
            response = try await transport.send(request)
        } catch {
            switch error.code {
            case .cancelled: throw SigningError(.cancelled, "the signature was cancelled during \(operation)")
            case .tooLarge:
                throw SigningError(.signingFailed, "the signing service's \(operation) answer is larger than 1 MiB")
            default:
                throw SigningError(
                    .keyContainerNotFound,
                    "the signing service \(baseURL) cannot be reached (\(operation)): \(error.message)")
            }
        }
        if [502, 503, 504].contains(response.status) {
            throw SigningError(
                .keyContainerNotFound,
                "the signing service \(baseURL) is unavailable (\(operation): HTTP \(response.status))")
        }
        return (response.status, (try? JSONValue.parse(response.body, maxDepth: 16)) ?? .null)
    }

    /// Asks `info` of each version in turn (v2 first) and returns the first that answers.
    static func discover(
        _ base: String, version: Version?, transport: any HTTPTransport
    ) async throws(SigningError) -> (Version, CSCServiceInfo) {
        var tried: [String] = []
        for candidate in version.map({ [$0] }) ?? [.v2, .v1] {
            var request = HTTPClientRequest(
                .post, "\(base)/csc/\(candidate.rawValue)/info",
                headers: [("Content-Type", "application/json"), ("Accept", "application/json")],
                body: JSONValue.object([]).bytes)
            request.timeout = timeout
            request.maxResponseSize = maxResponseSize
            let response: HTTPClientResponse
            do {
                response = try await transport.send(request)
            } catch {
                throw SigningError(
                    .keyContainerNotFound, "the signing service \(base) cannot be reached: \(error.message)")
            }
            if response.isSuccess, let answer = try? JSONValue.parse(response.body, maxDepth: 16),
                let info = CSCServiceInfo(answer, base: base), info.specs.hasPrefix(candidate == .v1 ? "1." : "2.")
            {
                return (candidate, info)
            }
            tried.append("\(candidate.rawValue): HTTP \(response.status)")
        }
        throw SigningError(
            .keyContainerNotFound,
            "no CSC API service answers at \(base) (\(tried.joined(separator: ", ")))")
    }

    /// `scheme://authority` of an http or https URL, lowercased.
    static func origin(of url: String) -> String? {
        guard let start = url.firstRange(of: "://") else { return nil }
        let authority = url[start.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return (url[..<start.upperBound] + authority).lowercased()
    }

    /// Whether an origin names this machine (127.0.0.0/8, `localhost`, `[::1]`).
    static func isLoopback(_ origin: String) -> Bool {
        guard let start = origin.firstRange(of: "://") else { return false }
        var host = String(origin[start.upperBound...])
        if host.hasPrefix("[") { return host.hasPrefix("[::1]") }
        if let colon = host.firstIndex(of: ":") { host = String(host[..<colon]) }
        return host == "localhost" || host.hasPrefix("127.")
    }

    /// Strict base64 (RFC 4648 §4, padding optional): nil for any other character.
    static func base64(_ text: String) -> [UInt8]? {
        var bytes = Array(text.utf8)
        while bytes.last == UInt8(ascii: "=") { bytes.removeLast() }
        let valid = bytes.allSatisfy {
            (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2B
                || $0 == 0x2F
        }
        guard valid, bytes.count % 4 != 1 else { return nil }
        return Base64.decode(bytes)
    }
}

/// What a CSC service says of itself (`info`).
public struct CSCServiceInfo: Sendable {
    /// The specification version it implements (`1.0.4.0`, `2.0.0.2`).
    public let specs: String
    /// Its name.
    public let name: String
    /// How clients authenticate: `external`, `TLS`, `basic`, `digest`, `oauth2code`, `oauth2implicit`,
    /// `oauth2client`.
    public let authTypes: [String]
    /// The base URI of its OAuth 2.0 authorization server, when it has one.
    public let oauth2: String?
    /// The API methods it implements.
    public let methods: [String]
    /// Its region (ISO 3166-1 alpha-2) and language.
    public let region: String?
    /// Its description.
    public let description: String?

    /// Reads an `info` answer of the service at `base`. Its `oauth2` server is taken when it is the
    /// service's own origin, or https while the service is https too: the client's secret goes
    /// there, so an answer read over plain http cannot send it elsewhere.
    init?(_ answer: JSONValue, base: String) {
        guard let specs = answer["specs"]?.stringValue.map(CSCClient.clean), !specs.isEmpty, specs.utf8.count <= 64
        else { return nil }
        self.specs = specs
        name = CSCClient.clean(answer["name"]?.stringValue ?? "")
        authTypes = (answer["authType"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(32).map(CSCClient.clean)
        let baseOrigin = CSCClient.origin(of: base)
        oauth2 = answer["oauth2"]?.stringValue.flatMap { url in
            guard HTTPClientRequest.isHTTP(url), !url.contains("?"), !url.contains("#"),
                let origin = CSCClient.origin(of: url), !origin.contains("@")
            else { return nil }
            let secure = origin.hasPrefix("https://") && baseOrigin?.hasPrefix("https://") == true
            return origin == baseOrigin || secure ? url : nil
        }
        methods = (answer["methods"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(64).map(CSCClient.clean)
        region = answer["region"]?.stringValue.map { CSCClient.clean(String($0.prefix(8))) }
        description = answer["description"]?.stringValue.map(CSCClient.clean)
    }
}
