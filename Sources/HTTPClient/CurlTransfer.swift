import CCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One transfer on a curl easy handle: set up, performed (blocking the calling thread) and cleaned
/// up. Its callbacks collect the body and header fields, stop at the size limit, and abort when the
/// flag says the caller was cancelled.
final class CurlTransfer {
    /// The most bytes of header fields kept (curl limits each field itself).
    static let maxHeaderBytes = 256 * 1024

    private let curl: CurlLibrary
    private let handle: UnsafeMutableRawPointer
    private let limit: Int
    private let cancel: CancelFlag
    /// Where this transfer may connect.
    private let policy: FetchPolicy
    /// The URL's host was allowed by name: every address it resolves to may be connected to.
    private var allowedByName = false
    /// Why each connection refused by the policy was refused, in order.
    private var refusals: [String] = []
    private var body: [UInt8] = []
    private var headers: [(name: String, value: String)] = []
    private var headerBytes = 0
    private var exceeded = false
    /// Where curl writes its message about a failure (CURLOPT_ERRORBUFFER: it must live as long as
    /// the handle).
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    private init?(_ curl: CurlLibrary, limit: Int, cancel: CancelFlag, policy: FetchPolicy) {
        guard let handle = curl.easyInit() else { return nil }
        self.curl = curl
        self.handle = handle
        self.limit = limit
        self.cancel = cancel
        self.policy = policy
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl.easyCleanup(handle)
        errorBuffer.deallocate()
    }

    /// Performs `request` on the calling thread, connecting only where `policy` allows.
    static func perform(_ request: HTTPClientRequest, userAgent: String, policy: FetchPolicy, cancel: CancelFlag)
        -> Result<HTTPClientResponse, HTTPClientError>
    {
        let shown = "\(request.method.rawValue) \(request.shownURL)"
        let curl: CurlLibrary
        switch CurlLibrary.shared {
        case .success(let library): curl = library
        case .failure(let error): return .failure(HTTPClientError(error.code, "\(shown): \(error.message)"))
        }
        guard let transfer = CurlTransfer(curl, limit: request.maxResponseSize, cancel: cancel, policy: policy) else {
            return .failure(HTTPClientError(.invalidRequest, "\(shown): libcurl could not be initialised"))
        }
        return transfer.run(request, userAgent: userAgent, shown: shown)
    }

    private func run(_ request: HTTPClientRequest, userAgent: String, shown: String)
        -> Result<HTTPClientResponse, HTTPClientError>
    {
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl.slistFreeAll(list) }
        // An empty `Expect:` keeps curl from waiting for a 100 Continue before a body.
        for line in ["Expect:"] + request.headers.map({ "\($0.name): \($0.value)" }) {
            guard let appended = curl.slistAppend(list, line) else {
                return .failure(HTTPClientError(.invalidRequest, "\(shown): out of memory for the header fields"))
            }
            list = appended
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let hasUserAgent = request.headers.contains { $0.name.lowercased() == "user-agent" }
        var request = request
        var target: [(String, CURLcode)] = [("URL", set(CURLOPT_URL, request.url))]
        var parsed: OpaquePointer?
        defer { curl.urlCleanup(parsed) }
        if policy.isRestricted {
            // The URL libcurl will use is the one checked: parsed once, by libcurl, and handed over.
            switch restrict(&request, shown: shown) {
            case .failure(let error): return .failure(error)
            case .success(let url): parsed = url
            }
            target = [
                ("CURLU", set(CURLOPT_CURLU, pointer: UnsafeMutableRawPointer(parsed))),
                // A proxy from the environment would connect in our place, past the checks.
                ("PROXY", set(CURLOPT_PROXY, "")),
                (
                    "OPENSOCKETFUNCTION",
                    autograph_curl_setopt_opensocket_function(curl.easySetopt, handle, Self.openSocket)
                ),
                ("OPENSOCKETDATA", set(CURLOPT_OPENSOCKETDATA, pointer: context)),
            ]
        }
        let setup: [(String, CURLcode)] =
            [("ERRORBUFFER", set(CURLOPT_ERRORBUFFER, pointer: errorBuffer))] + target + [
                ("PROTOCOLS_STR", set(CURLOPT_PROTOCOLS_STR, "http,https")),
                ("REDIR_PROTOCOLS_STR", set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")),
                ("FOLLOWLOCATION", set(CURLOPT_FOLLOWLOCATION, request.maxRedirects > 0 ? 1 : 0)),
                ("MAXREDIRS", set(CURLOPT_MAXREDIRS, request.maxRedirects)),
                ("SSL_VERIFYPEER", set(CURLOPT_SSL_VERIFYPEER, 1)),
                ("SSL_VERIFYHOST", set(CURLOPT_SSL_VERIFYHOST, 2)),
                // Timeouts with threads: no SIGALRM around name resolution.
                ("NOSIGNAL", set(CURLOPT_NOSIGNAL, 1)),
                ("TIMEOUT_MS", set(CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))),
                ("CONNECTTIMEOUT_MS", set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout))),
                // Refused before the body when Content-Length announces more; the write callback
                // stops a body that only grows past it.
                ("MAXFILESIZE_LARGE", set(CURLOPT_MAXFILESIZE_LARGE, offset: request.maxResponseSize)),
                ("HTTPHEADER", autograph_curl_setopt_list(curl.easySetopt, handle, CURLOPT_HTTPHEADER, list)),
                ("USERAGENT", hasUserAgent ? CURLE_OK : set(CURLOPT_USERAGENT, userAgent)),
                ("WRITEFUNCTION", set(CURLOPT_WRITEFUNCTION, function: Self.write)),
                ("WRITEDATA", set(CURLOPT_WRITEDATA, pointer: context)),
                ("HEADERFUNCTION", set(CURLOPT_HEADERFUNCTION, function: Self.header)),
                ("HEADERDATA", set(CURLOPT_HEADERDATA, pointer: context)),
                ("XFERINFOFUNCTION", autograph_curl_setopt_progress_function(curl.easySetopt, handle, Self.progress)),
                ("XFERINFODATA", set(CURLOPT_XFERINFODATA, pointer: context)),
                ("NOPROGRESS", set(CURLOPT_NOPROGRESS, 0)),
            ] + method(request)
        if let (option, code) = setup.first(where: { $0.1 != CURLE_OK }) {
            let text = curl.text(code)
            return .failure(
                HTTPClientError(
                    .invalidRequest, "\(shown): CURLOPT_\(option) refused (curl \(code.rawValue): \(text))",
                    curlCode: Int(code.rawValue)))
        }
        let code = curl.easyPerform(handle)
        guard code == CURLE_OK else { return .failure(failure(code, shown: shown)) }
        var status = 0
        _ = autograph_curl_getinfo_long(curl.easyGetinfo, handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(HTTPClientResponse(status: status, headers: headers, body: body))
    }

    /// A restricted transfer's URL parsed by libcurl and checked (scheme, host, port), and the
    /// request's limits brought within the policy's (no redirect, its time limits); the parsed URL
    /// (to free) or why the request is refused.
    private func restrict(_ request: inout HTTPClientRequest, shown: String) -> Result<OpaquePointer?, HTTPClientError>
    {
        let url = curl.urlNew()
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var text: UnsafeMutablePointer<CChar>?
            guard curl.urlGet(url, which, &text, flags) == CURLUE_OK, let text else { return nil }
            defer { curl.free(text) }
            return String(cString: text)
        }
        guard let url, curl.urlSet(url, CURLUPART_URL, request.url, 0) == CURLUE_OK,
            let scheme = part(CURLUPART_SCHEME)?.lowercased(), let host = part(CURLUPART_HOST),
            let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) })
        else {
            curl.urlCleanup(url)
            return .failure(HTTPClientError(.invalidRequest, "\(shown): a URL libcurl cannot read"))
        }
        guard scheme == "http" || scheme == "https" else {
            curl.urlCleanup(url)
            return .failure(HTTPClientError(.unsupportedScheme, "\(shown): only http and https URLs are fetched"))
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let (refusal, byName) = policy.check(host: bare, port: port)
        if let refusal {
            curl.urlCleanup(url)
            return .failure(HTTPClientError(.forbiddenDestination, "\(shown): \(refusal)"))
        }
        allowedByName = byName
        request.maxRedirects = 0
        request.timeout = min(request.timeout, policy.timeLimit)
        request.connectTimeout = min(request.connectTimeout, policy.connectTimeLimit)
        return .success(url)
    }

    /// The options that make the request's method and body.
    private func method(_ request: HTTPClientRequest) -> [(String, CURLcode)] {
        switch request.method {
        case .get: return [("HTTPGET", set(CURLOPT_HTTPGET, 1))]
        case .head: return [("NOBODY", set(CURLOPT_NOBODY, 1))]
        case .delete where request.body.isEmpty: return [("CUSTOMREQUEST", set(CURLOPT_CUSTOMREQUEST, "DELETE"))]
        case .post, .put, .delete:
            var options = [
                ("POST", set(CURLOPT_POST, 1)),
                ("POSTFIELDSIZE_LARGE", set(CURLOPT_POSTFIELDSIZE_LARGE, offset: request.body.count)),
                // Copied by curl, so the bytes need not outlive this call; never a null pointer (curl
                // would then read the body from standard input).
                (
                    "COPYPOSTFIELDS",
                    (request.body.isEmpty ? [0] : request.body).withUnsafeBytes {
                        set(CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: $0.baseAddress))
                    }
                ),
            ]
            if request.method != .post {
                options.append(("CUSTOMREQUEST", set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)))
            }
            return options
        }
    }

    // MARK: - curl_easy_setopt, through CCurl's typed wrappers

    private func set(_ option: CURLoption, _ value: Int) -> CURLcode {
        autograph_curl_setopt_long(curl.easySetopt, handle, option, value)
    }

    private func set(_ option: CURLoption, _ value: String) -> CURLcode {
        autograph_curl_setopt_string(curl.easySetopt, handle, option, value)
    }

    private func set(_ option: CURLoption, offset: Int) -> CURLcode {
        autograph_curl_setopt_offset(curl.easySetopt, handle, option, curl_off_t(offset))
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) -> CURLcode {
        autograph_curl_setopt_pointer(curl.easySetopt, handle, option, pointer)
    }

    private func set(_ option: CURLoption, function: curl_write_callback) -> CURLcode {
        autograph_curl_setopt_write_function(curl.easySetopt, handle, option, function)
    }

    /// The error for curl's failure `code`, with curl's own message.
    private func failure(_ code: CURLcode, shown: String) -> HTTPClientError {
        var detail = String(cString: errorBuffer)
        if detail.isEmpty { detail = curl.text(code) }
        let curl = "curl \(code.rawValue): \(detail)"
        let kind: HTTPClientError.Code
        let what: String
        switch code {
        case _ where !refusals.isEmpty && code == CURLE_COULDNT_CONNECT:
            kind = .forbiddenDestination
            what = refusals.joined(separator: "; ")
        case _ where exceeded || code == CURLE_FILESIZE_EXCEEDED:
            kind = .tooLarge
            what = "the response is larger than \(limit) bytes; the transfer was aborted"
        case _ where cancel.isCancelled && code == CURLE_ABORTED_BY_CALLBACK:
            kind = .cancelled
            what = "cancelled"
        case CURLE_UNSUPPORTED_PROTOCOL:
            kind = .unsupportedScheme
            what = "only http and https are fetched"
        case CURLE_URL_MALFORMAT:
            kind = .invalidRequest
            what = "a malformed URL"
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            kind = .connectionFailed
            what = "no connection"
        case CURLE_OPERATION_TIMEDOUT:
            kind = .timedOut
            what = "timed out"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CLIENTCERT:
            kind = .tls
            what = "TLS failed"
        default:
            kind = .transferFailed
            what = "the transfer failed"
        }
        return HTTPClientError(kind, "\(shown): \(what) (\(curl))", curlCode: Int(code.rawValue))
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64(Int.max / 1000 - 1) else { return Int.max / 2 }
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    // MARK: - Callbacks (curl calls them on the transfer's thread, within curl_easy_perform)

    private static let write: curl_write_callback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        guard transfer.body.count + length <= transfer.limit else {
            transfer.exceeded = true
            return 0  // anything but `length` aborts the transfer (CURLE_WRITE_ERROR)
        }
        if let data, length > 0 {
            transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        }
        return length
    }

    /// One header line (the status line, a field, or the blank line that ends them). A status line
    /// starts over: the fields kept are the final response's (after a redirect or a 1xx).
    private static let header: curl_write_callback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        transfer.headerBytes += length
        guard transfer.headerBytes <= maxHeaderBytes else {
            transfer.exceeded = true
            return 0
        }
        guard let data else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.headers = []
        } else if let colon = line.firstIndex(of: ":") {
            let trim: (Substring) -> String = { text in
                String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0.isWhitespace }.reversed())
            }
            transfer.headers.append((trim(line[..<colon]), trim(line[line.index(after: colon)...])))
        }
        return length
    }

    /// Makes the socket of each connection a restricted transfer opens, once its address passes
    /// the policy; `CURL_SOCKET_BAD` (curl then tries the next address, or fails with
    /// CURLE_COULDNT_CONNECT) for one that does not. The address checked is the one connected to.
    private static let openSocket: curl_opensocket_callback = { context, purpose, address in
        guard let context, let address else { return CURL_SOCKET_BAD }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let offset = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr) ?? 16
        let found = IPAddress.socketAddress(
            UnsafeRawPointer(address) + offset, length: Int(address.pointee.addrlen))
        guard purpose == CURLSOCKTYPE_IPCXN, let (ip, port) = found else {
            transfer.refusals.append("a connection that is not to an IP address and port")
            return CURL_SOCKET_BAD
        }
        if let refusal = transfer.policy.check(connectingTo: ip, port: port, byName: transfer.allowedByName) {
            transfer.refusals.append(refusal)
            return CURL_SOCKET_BAD
        }
        return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
    }

    /// Called about once a second, and as bytes move: non-zero aborts (CURLE_ABORTED_BY_CALLBACK).
    private static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
        guard let context else { return 0 }
        return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().cancel.isCancelled ? 1 : 0
    }
}
