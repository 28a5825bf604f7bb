import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// libmicrohttpd's daemon: an internal polling thread and one thread per connection. Each request's
/// body is collected as it arrives (413 as soon as it passes the limit), then handed to the async
/// handler on Swift's pool while the connection's thread waits for the answer — MHD's threads wait,
/// the cooperative pool never does.
final class MicroHTTPDDaemon: Sendable {
    typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    /// How many request bodies are received at once, and how large.
    struct UploadLimits: Sendable {
        /// The largest body of one request.
        var bodyBytes: Int
        /// Bodies being received or answered at once; beyond, `503` at once.
        var concurrentBodies: Int
        /// The bytes of every body held at once; beyond, the body is dropped and answered `503`.
        var totalBytes: Int
    }

    let handler: Handler
    let limits: UploadLimits
    var uploadLimit: Int { limits.bodyBytes }
    /// Seconds between `: keep-alive` comments on an event stream.
    let keepAliveInterval: Double
    /// The running daemon's address (0 when stopped): `OpaquePointer` is not `Sendable`.
    private let daemon = Mutex<Int>(0)
    /// The bodies and their bytes held now.
    private let uploads = Mutex<(count: Int, bytes: Int)>((0, 0))

    init(limits: UploadLimits, keepAliveInterval: Double, handler: @escaping Handler) {
        self.limits = limits
        self.keepAliveInterval = keepAliveInterval
        self.handler = handler
    }

    deinit { stop() }

    /// Listens on `host` (an IPv4 or IPv6 literal, or `localhost`) and `port` (0: any free port);
    /// returns the port bound. The socket is made here (so the port bound is known) and handed to MHD.
    /// The library's functions: every call comes after `start` opened it.
    private var library: MicroHTTPDLibrary {
        switch MicroHTTPDLibrary.shared {
        case .success(let library): library
        case .failure(let error): fatalError("libmicrohttpd is used before a server started: \(error.message)")
        }
    }

    func start(host: String, port: Int) throws(WebError) -> Int {
        if case .failure(let error) = MicroHTTPDLibrary.shared { throw error }
        guard (0...65535).contains(port) else { throw WebError.badRequest("port \(port) is out of range") }
        let literal = host == "localhost" ? "127.0.0.1" : String(host.filter { $0 != "[" && $0 != "]" })
        let (socket, bound) = try Self.listen(literal, port)
        let flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_AUTO.rawValue | (literal.contains(":") ? MHD_USE_IPv6.rawValue : 0)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let completed = unsafeBitCast(requestCompleted, to: UnsafeRawPointer.self)
        let arguments: [any CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, socket,
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, OpaquePointer(completed), OpaquePointer(context),
            // Each connection is a thread: at most `connectionLimit` at once, an idle one closed
            // after a minute, or two keep-alive intervals of an event stream if that is longer.
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(Self.connectionLimit),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue,
            UInt32(min(max(60, keepAliveInterval.isFinite ? keepAliveInterval * 2 : 60), 3600)),
            MHD_OPTION.UNESCAPE_CALLBACK.rawValue, OpaquePointer(unsafeBitCast(unescape, to: UnsafeRawPointer.self)),
            OpaquePointer(context),
            MHD_OPTION.END.rawValue,
        ]
        let started = withVaList(arguments) { list in
            library.startDaemon(
                flags, UInt16(bound), nil, nil, accessHandler, context,
                unsafeBitCast(list, to: UnsafeMutableRawPointer.self))
        }
        guard let started else {
            close(socket)
            throw WebError.internal("libmicrohttpd did not start on \(host):\(bound)")
        }
        let address = Int(bitPattern: started)
        daemon.withLock { $0 = address }
        return bound
    }

    /// A listening TCP socket on `literal`:`port`, and the port it got.
    private static func listen(_ literal: String, _ port: Int) throws(WebError) -> (Int32, Int) {
        let family = literal.contains(":") ? AF_INET6 : AF_INET
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw failure("socket", literal, port) }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var storage = sockaddr_storage()
        var length: socklen_t
        if family == AF_INET6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            guard inet_pton(AF_INET6, literal, &address.sin6_addr) == 1 else {
                close(socket)
                throw WebError.badRequest("\(literal) is not an IP address")
            }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            guard inet_pton(AF_INET, literal, &address.sin_addr) == 1 else {
                close(socket)
                throw WebError.badRequest("\(literal) is not an IP address")
            }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        }
        let bound = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && Glibc.listen(socket, 64) == 0
                    && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else {
            let error = failure("bind", literal, port)
            close(socket)
            throw error
        }
        let boundPort =
            family == AF_INET6
            ? withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self).sin6_port }
            : withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self).sin_port }
        return (socket, Int(UInt16(bigEndian: boundPort)))
    }

    private static func failure(_ call: String, _ host: String, _ port: Int) -> WebError {
        WebError.internal(
            "cannot listen on \(host):\(port): \(call): \(String(cString: strerror(errno)))")
    }

    /// Stops listening and waits for the connection threads (event streams must be finished first).
    func stop() {
        let address = daemon.withLock { value in
            defer { value = 0 }
            return value
        }
        guard let running = OpaquePointer(bitPattern: address) else { return }
        library.stopDaemon(running)
    }

    // MARK: - Requests

    /// Called by MHD for each request: first with no body (make the context), then with each piece
    /// of the body, then once with none (answer).
    func access(
        _ connection: OpaquePointer, url: String, method: String, uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, context slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let raw = slot.pointee else {
            let context = RequestContext(daemon: self)
            slot.pointee = Unmanaged.passRetained(context).toOpaque()
            let headers = values(connection, .HEADER_KIND, lowercased: true)
            context.headers = headers
            if let refusal = Self.framingProblem(headers) {
                context.answered = true
                return queue(HTTPResponse.error(refusal), on: connection)
            }
            let length = headers.values["content-length"].map { Int($0) ?? Int.max }
            if let length, length > uploadLimit {
                context.answered = true
                return queue(HTTPResponse.error(.tooLarge(uploadLimit)), on: connection)
            }
            // An upload (a document, a photo): a body over 64 KB or of unknown length. Small JSON
            // bodies are API calls; they count only in the bytes held.
            if (length ?? 0) > Self.smallBody || headers.values["transfer-encoding"] != nil {
                guard admitUpload(context) else {
                    context.answered = true
                    return queue(HTTPResponse.error(.busy("too many uploads at once")), on: connection)
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
            return queue(HTTPResponse.error(.tooLarge(uploadLimit)), on: connection)
        }
        if context.overBudget {
            context.answered = true
            return queue(HTTPResponse.error(.busy("the uploads under way hold too many bytes")), on: connection)
        }
        context.answered = true
        let headers = context.headers
        var request = HTTPRequest(
            method: method, path: url, body: context.body, repeatedHeaders: headers.repeated)
        context.body = []
        request.headers = headers.values
        request.cookies = values(connection, .COOKIE_KIND, lowercased: false).values
        request.query = values(connection, .GET_ARGUMENT_KIND, lowercased: false).values
        let response = answer(request, on: connection)
        return queue(response, on: connection)
    }

    /// Connections (threads) at once; beyond, libmicrohttpd closes new ones at once.
    static let connectionLimit = 256

    /// The largest body that is not counted among the uploads received at once.
    static let smallBody = 64 * 1024

    /// Conflicting framing headers (request smuggling): two `Content-Length`s, both a length and
    /// `Transfer-Encoding`, a length that is not a number.
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
    fileprivate func finished(_ context: RequestContext) {
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

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                library.createResponseFromBuffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .events(let subscription):
            let stream = EventStreamState(subscription: subscription, keepAlive: keepAliveInterval)
            made = library.createResponseFromCallback(
                UInt64.max, 4096, eventReader, Unmanaged.passRetained(stream).toOpaque(), eventFree)
        }
        guard let made else { return .NO }
        defer { library.destroyResponse(made) }
        for (name, value) in response.headers { _ = library.addResponseHeader(made, name, value) }
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

/// The body collected so far, and whether the request was answered already.
private final class RequestContext {
    unowned let daemon: MicroHTTPDDaemon
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
    /// The headers, read once when they arrived.
    var headers: (values: [String: String], repeated: Set<String>) = ([:], [])

    init(daemon: MicroHTTPDDaemon) { self.daemon = daemon }
}

private final class ValueCollector {
    let lowercased: Bool
    var values: [String: String] = [:]
    var repeated: Set<String> = []
    init(lowercased: Bool) { self.lowercased = lowercased }
}

/// An event stream being written: the part of a chunk that did not fit MHD's buffer.
private final class EventStreamState {
    let subscription: EventSubscription
    let keepAlive: Double
    var pending: [UInt8] = []
    var offset = 0

    init(subscription: EventSubscription, keepAlive: Double) {
        self.subscription = subscription
        self.keepAlive = keepAlive
    }
}

private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadSize, slot in
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    let daemon = Unmanaged<MicroHTTPDDaemon>.fromOpaque(cls).takeUnretainedValue()
    return daemon.access(
        connection, url: url.map { String(cString: $0) } ?? "/", method: method.map { String(cString: $0) } ?? "GET",
        uploadData: uploadData, uploadSize: uploadSize, context: slot)
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, slot, _ in
    guard let slot, let raw = slot.pointee else { return }
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    context.daemon.finished(context)
    slot.pointee = nil
}

/// Decodes `%HH` escapes of the path and query in place, as MHD's own would, except that a byte
/// below 0x20 (NUL above all) or 0x7F becomes 0x7F: MHD hands the path on as a C string, so `%00`
/// would silently cut it (`/api/signatures/1%00x` read as `…/1`); DEL makes the router refuse it.
private let unescape: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int =
    { _, _, text in
        guard let text else { return 0 }
        let bytes = UnsafeMutableRawPointer(text).assumingMemoryBound(to: UInt8.self)
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        var read = 0
        var write = 0
        while bytes[read] != 0 {
            var byte = bytes[read]
            if byte == 0x25, bytes[read + 1] != 0, let high = digit(bytes[read + 1]), bytes[read + 2] != 0,
                let low = digit(bytes[read + 2])
            {
                byte = high << 4 | low
                read += 3
            } else {
                read += 1
            }
            bytes[write] = byte < 0x20 || byte == 0x7F ? 0x7F : byte
            write += 1
        }
        bytes[write] = 0
        return write
    }

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key)
    let stored = collector.lowercased ? name.lowercased() : name
    if collector.values[stored] != nil { collector.repeated.insert(stored) }
    collector.values[stored] = value.map { String(cString: $0) } ?? ""
    return .YES
}

private let eventReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }
    let stream = Unmanaged<EventStreamState>.fromOpaque(cls).takeUnretainedValue()
    if stream.offset >= stream.pending.count {
        switch stream.subscription.next(timeout: stream.keepAlive) {
        case .chunk(let chunk): stream.pending = chunk
        case .timeout: stream.pending = Array(": keep-alive\n\n".utf8)
        case .end: return -1
        }
        stream.offset = 0
    }
    let count = min(max, stream.pending.count - stream.offset)
    stream.pending.withUnsafeBytes { source in
        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + stream.offset, byteCount: count)
    }
    stream.offset += count
    return count
}

private let eventFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let stream = Unmanaged<EventStreamState>.fromOpaque(cls).takeRetainedValue()
    stream.subscription.cancel()
}
