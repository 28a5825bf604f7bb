import CMicroHTTPD
import CShims
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension MicroHTTPDDaemon {
    /// Called by MHD for each request: first with no body (make the context, admit or refuse), then
    /// with each piece of the body, then once with none (answer).
    func access(
        _ connection: OpaquePointer, url: String, method: String, uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, context slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = slot.pointee else {
            let context = RequestContext(daemon: self)
            slot.pointee = Unmanaged.passRetained(context).toOpaque()
            // An error libmicrohttpd answers itself from now on (a chunked body it cannot read)
            // ends this connection without its page (`autograph_http_log_callback`).
            let socket = library.connectionInfo(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd
            autograph_http_set_thread_socket(socket.map { Int32($0) } ?? -1)
            let headers = values(connection, .HEADER_KIND, lowercased: true)
            var request = HTTPRequest(method: method, path: url, repeatedHeaders: headers.repeated)
            request.headers = headers.values
            request.cookies = values(connection, .COOKIE_KIND, lowercased: false).values
            request.query = values(connection, .GET_ARGUMENT_KIND, lowercased: false).values
            context.request = request
            if let refusal = Self.framingProblem(headers) {
                context.answered = true
                return refuse(refusal, on: connection)
            }
            if let refusal = admission(request) {
                context.answered = true
                return queue(refusal, on: connection)
            }
            let length = headers.values["content-length"].map { Int($0) ?? Int.max }
            if let length, length > uploadLimit {
                context.answered = true
                return refuse(.tooLarge(uploadLimit), on: connection)
            }
            // An upload (a document, a photo): a body over 64 KB or of unknown length. Small JSON
            // bodies are API calls; they count only in the bytes held.
            if (length ?? 0) > Self.smallBody || headers.values["transfer-encoding"] != nil {
                guard admitUpload(context) else {
                    context.answered = true
                    return refuse(.busy("too many uploads at once"), on: connection)
                }
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            if context.answered { return .YES }
            context.received += count
            if context.received > uploadLimit || context.overBudget || !holdUploadBytes(count, context) {
                // MHD answers only once the body is read: drop it as it comes (413 or 503 at its
                // end), and give up on a client that keeps sending far past the limit.
                releaseUploadBytes(context)
                context.body = []
                return context.received > 2 * uploadLimit + (1 << 20) ? .NO : .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                    context.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
                }
            }
            return .YES
        }
        if context.answered { return .YES }
        if context.received > uploadLimit {
            context.answered = true
            return refuse(.tooLarge(uploadLimit), on: connection)
        }
        if context.overBudget {
            context.answered = true
            return refuse(.busy("the uploads under way hold too many bytes"), on: connection)
        }
        context.answered = true
        var request = context.request
        request.body = context.body
        context.body = []
        let response = answer(request, on: connection)
        return queue(response, on: connection)
    }

    /// The largest body that is not counted among the uploads received at once.
    static let smallBody = 64 * 1024

    /// Conflicting framing headers (request smuggling): two `Content-Length`s, both a length and
    /// `Transfer-Encoding`, a length that is not a number. (The gate refuses them first; this stays
    /// for whatever reaches libmicrohttpd another way.)
    static func framingProblem(_ headers: (values: [String: String], repeated: Set<String>)) -> WebError? {
        if headers.repeated.contains("content-length") || headers.repeated.contains("transfer-encoding") {
            return .badRequest("Content-Length or Transfer-Encoding is given more than once")
        }
        if headers.values["content-length"] != nil, headers.values["transfer-encoding"] != nil {
            return .badRequest("Content-Length and Transfer-Encoding cannot both be given")
        }
        if let length = headers.values["content-length"], Int(length).map({ $0 < 0 }) ?? true {
            return .badRequest("Content-Length must be a number of bytes")
        }
        return nil
    }

    // MARK: - Upload accounting

    private func admitUpload(_ context: RequestContext) -> Bool {
        uploads.withLock { value in
            guard value.count < limits.concurrentBodies else { return false }
            value.count += 1
            context.admitted = true
            return true
        }
    }

    /// Counts `count` more bytes held; false (and nothing counted) when that passes the total.
    private func holdUploadBytes(_ count: Int, _ context: RequestContext) -> Bool {
        let held = uploads.withLock { value in
            guard value.bytes + count <= limits.totalBytes else { return false }
            value.bytes += count
            return true
        }
        if held { context.held += count } else { context.overBudget = true }
        return held
    }

    private func releaseUploadBytes(_ context: RequestContext) {
        let held = context.held
        context.held = 0
        uploads.withLock { $0.bytes -= held }
    }

    /// The request is over: its body and its place among the uploads are free.
    func finished(_ context: RequestContext) {
        releaseUploadBytes(context)
        if context.admitted {
            context.admitted = false
            uploads.withLock { $0.count -= 1 }
        }
    }

    // MARK: - Answering

    /// Runs the async handler and waits for it on this (MHD's) thread, watching the socket: when the
    /// client closes it, the request's ``ClientConnection`` is marked gone and the task cancelled.
    private func answer(_ request: HTTPRequest, on connection: OpaquePointer) -> HTTPResponse {
        var request = request
        let client = ClientConnection()
        request.client = client
        let result = Mutex<HTTPResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        let task = Task { [request] in
            let response = await handler(request)
            result.withLock { $0 = response }
            done.signal()
        }
        let socket = library.connectionInfo(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd
        while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            if let socket, !client.isGone, Self.peerClosed(socket) {
                client.markGone()
                task.cancel()
            }
        }
        return result.withLock { $0 } ?? .error(WebError.internal("no answer"))
    }

    /// Whether the peer closed its side of `socket` (or it failed), without reading anything.
    static func peerClosed(_ socket: Int32) -> Bool {
        // POLLRDHUP (Linux): the peer shut down writing; a client waiting for its answer never does.
        let readHangUp: Int16 = 0x2000
        var descriptor = pollfd(fd: socket, events: readHangUp, revents: 0)
        guard poll(&descriptor, 1, 0) >= 0 else { return false }
        return descriptor.revents & (readHangUp | Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0
    }

    /// A refusal of the daemon's own (before any route): the error's answer with the security headers.
    private func refuse(_ error: WebError, on connection: OpaquePointer) -> MHD_Result {
        var response = HTTPResponse.error(error)
        SecurityHeaders.apply(to: &response)
        return queue(response, on: connection)
    }

    /// Queues `response` with `Connection: close`: every connection carries one request, so that
    /// the gate checks each request's head before libmicrohttpd reads it.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                library.createResponseFromBuffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .events(let subscription):
            // An event stream is quiet between its keep-alive comments: it outlives the idle timeout.
            _ = autograph_mhd_set_connection_timeout(library.setConnectionOption, connection, eventStreamTimeout)
            let stream = EventStreamState(subscription: subscription, keepAlive: keepAliveInterval)
            made = library.createResponseFromCallback(
                UInt64.max, 4096, eventReader, Unmanaged.passRetained(stream).toOpaque(), eventFree)
        }
        guard let made else { return .NO }
        defer { library.destroyResponse(made) }
        for (name, value) in response.headers where name.lowercased() != "connection" {
            _ = library.addResponseHeader(made, name, value)
        }
        _ = library.addResponseHeader(made, "Connection", "close")
        return library.queueResponse(connection, UInt32(response.status), made)
    }

    /// The values of one kind, the last of a repeated name kept, and the names given more than once.
    private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> (
        values: [String: String], repeated: Set<String>
    ) {
        let collector = ValueCollector(lowercased: lowercased)
        let pointer = Unmanaged.passUnretained(collector).toOpaque()
        _ = library.getConnectionValues(connection, kind, collectValue, pointer)
        return (collector.values, collector.repeated)
    }
}

/// The request read so far, and whether it was answered already.
final class RequestContext {
    unowned let daemon: MicroHTTPDDaemon
    /// The request as its head gave it (the body is added at the end).
    var request = HTTPRequest(method: "GET", path: "/")
    var body: [UInt8] = []
    /// The bytes of the body received, kept or not.
    var received = 0
    var answered = false
    /// Counted among the bodies received at once.
    var admitted = false
    /// The bytes of the body counted in the daemon's total.
    var held = 0
    /// The total of bodies held was reached: this one is dropped and answered 503.
    var overBudget = false

    init(daemon: MicroHTTPDDaemon) { self.daemon = daemon }
}
