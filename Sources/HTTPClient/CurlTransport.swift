import Dispatch
import Synchronization

/// The HTTP transport on libcurl.
///
/// Each transfer runs on a Dispatch queue of its own (a thread outside Swift's cooperative pool,
/// which a blocking `curl_easy_perform` must never hold) and is aborted when the task that awaits it
/// is cancelled. What every transfer gets, whatever the request says:
/// - only `http` and `https`, for the request and for any redirect (`CURLOPT_PROTOCOLS_STR`);
/// - TLS verified: the peer's chain against the system's trust anchors, and its name;
/// - redirects followed only when the request asks (`maxRedirects`);
/// - the connect timeout and the total timeout, and the response's size limit (the transfer is
///   aborted as soon as the body passes it, whether or not `Content-Length` announced it);
/// - a proxy as curl takes it from the environment (`http_proxy`, `https_proxy`, `no_proxy`);
/// - no `Expect: 100-continue` (a body is sent at once);
/// - with a restricted ``policy``, connections only where it allows (``FetchPolicy``).
package struct CurlTransport: HTTPTransport {
    /// True: every request fails at once with `offline`, and nothing touches the network.
    package var offline: Bool
    /// The `User-Agent` sent when the request has none.
    package var userAgent: String
    /// Where connections may go (``FetchPolicy/unrestricted``: wherever the URL says).
    package var policy: FetchPolicy

    /// A transport; `offline` refuses every request; `policy` says where it may connect.
    package init(offline: Bool = false, userAgent: String = "Autograph", policy: FetchPolicy = .unrestricted) {
        self.offline = offline
        self.userAgent = userAgent
        self.policy = policy
    }

    package func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        if let refusal = check(request) { throw refusal }
        let flag = CancelFlag()
        let userAgent = userAgent
        let policy = policy
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>) in
                DispatchQueue(label: "org.autograph.http", qos: .utility).async {
                    continuation.resume(
                        returning: CurlTransfer.perform(request, userAgent: userAgent, policy: policy, cancel: flag))
                }
            }
        } onCancel: {
            flag.cancel()
        }
        return try result.get()
    }

    /// Why `request` is not sent at all, or nil.
    func check(_ request: HTTPClientRequest) -> HTTPClientError? {
        let shown = "\(request.method.rawValue) \(request.shownURL)"
        guard let scheme = HTTPClientRequest.scheme(of: request.url), scheme == "http" || scheme == "https" else {
            return HTTPClientError(.unsupportedScheme, "\(shown): only http and https URLs are fetched")
        }
        guard HTTPClientRequest.isHTTP(request.url) else {
            return HTTPClientError(.invalidRequest, "\(shown): not a URL with a host (or it has spaces or controls)")
        }
        if offline {
            return HTTPClientError(.offline, "\(shown): offline, so no request is made")
        }
        for (name, value) in request.headers {
            let bad = { (text: String) in text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" } }
            if name.isEmpty || name.contains(":") || bad(name) || bad(value) {
                return HTTPClientError(.invalidRequest, "\(shown): the header \"\(name)\" is not a valid field")
            }
        }
        guard request.timeout > .zero, request.connectTimeout > .zero, request.maxResponseSize >= 0,
            request.maxRedirects >= 0
        else {
            return HTTPClientError(.invalidRequest, "\(shown): timeouts must be positive and limits not negative")
        }
        return nil
    }
}

/// Set when the task awaiting a transfer is cancelled; read by curl's progress callback.
final class CancelFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func cancel() { value.store(true, ordering: .relaxed) }
    var isCancelled: Bool { value.load(ordering: .relaxed) }
}
