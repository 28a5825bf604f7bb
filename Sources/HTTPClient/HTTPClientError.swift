/// Why a request got no response: refused before it was sent, or the transfer failed. It carries
/// curl's own message and code when curl failed. Equal by code (the message names the request).
package struct HTTPClientError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, stable for callers to decide on.
    package enum Code: String, Sendable {
        /// The request cannot be sent as written: a malformed URL, a header with CR or LF, an
        /// option the installed libcurl lacks.
        case invalidRequest
        /// A scheme other than `http` or `https` (file, ftp, gopher … are never fetched).
        case unsupportedScheme
        /// The transport is offline: it makes no request at all.
        case offline
        /// libcurl cannot be loaded (not installed) or lacks a function.
        case unavailable
        /// No connection: the name did not resolve, the connection was refused or unreachable.
        case connectionFailed
        /// The connect timeout or the whole request's timeout passed.
        case timedOut
        /// The response was larger than the request's `maxResponseSize`; the transfer was aborted.
        case tooLarge
        /// TLS failed: the certificate did not verify, the handshake failed.
        case tls
        /// The fetch policy (``FetchPolicy``) refused the destination: a port not allowed, or an
        /// address that is loopback, private, link-local or otherwise not public; nothing was sent.
        case forbiddenDestination
        /// The task that sent it was cancelled; the transfer was aborted.
        case cancelled
        /// Anything else curl reports (a reset connection, too many redirects, a malformed response).
        case transferFailed
    }

    /// What went wrong.
    package var code: Code
    /// One line: the request (method and URL without query or credentials) and the reason, with
    /// curl's message (`curl 7: Failed to connect to 127.0.0.1 port 9 …`) when curl failed.
    package var message: String
    /// curl's `CURLcode`, when curl failed.
    package var curlCode: Int?

    /// An error of `code` saying `message`.
    package init(_ code: Code, _ message: String, curlCode: Int? = nil) {
        self.code = code
        self.message = message
        self.curlCode = curlCode
    }

    package var description: String { message }

    package static func == (left: HTTPClientError, right: HTTPClientError) -> Bool { left.code == right.code }
}

/// Sends HTTP requests. ``CurlTransport`` is the real one; tests give their own (to count requests,
/// or to answer without a network).
package protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the final response, whatever its status (a 404 or 500 is a
    /// response, not an error).
    /// - Throws: `HTTPClientError` when no response came: refused scheme or request, offline,
    ///   connection failed, timed out, too large, TLS, cancelled, or another transfer failure.
    func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse
}
