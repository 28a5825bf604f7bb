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

    let handler: Handler
    let uploadLimit: Int
    /// Seconds between `: keep-alive` comments on an event stream.
    let keepAliveInterval: Double
    /// The running daemon's address (0 when stopped): `OpaquePointer` is not `Sendable`.
    private let daemon = Mutex<Int>(0)

    init(uploadLimit: Int, keepAliveInterval: Double, handler: @escaping Handler) {
        self.uploadLimit = uploadLimit
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
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(300),
            MHD_OPTION.END.rawValue,
        ]
        let started = withVaList(arguments) { list in
            library.startDaemon(
                flags, UInt16(bound), nil, nil, accessHandler, context,
                unsafeBitCast(list, to: UnsafeMutableRawPointer.self))
        }
        guard let started else {
            close(socket)
            throw WebError(status: 500, code: "internal", message: "libmicrohttpd did not start on \(host):\(bound)")
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
        WebError(
            status: 500, code: "internal",
            message: "cannot listen on \(host):\(port): \(call): \(String(cString: strerror(errno)))")
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
            let context = RequestContext()
            slot.pointee = Unmanaged.passRetained(context).toOpaque()
            if let length = lookup(connection, .HEADER_KIND, "Content-Length").flatMap({ Int($0) }),
                length > uploadLimit
            {
                context.answered = true
                return queue(HTTPResponse.error(.tooLarge(uploadLimit)), on: connection)
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            if context.answered { return .YES }
            context.received += count
            if context.received > uploadLimit {
                // MHD answers only once the body is read: drop it as it comes (413 at its end), and
                // give up on a client that keeps sending far past the limit.
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
        context.answered = true
        var request = HTTPRequest(method: method, path: url, body: context.body)
        context.body = []
        request.headers = values(connection, .HEADER_KIND, lowercased: true)
        request.cookies = values(connection, .COOKIE_KIND, lowercased: false)
        request.query = values(connection, .GET_ARGUMENT_KIND, lowercased: false)
        let response = answer(request)
        return queue(response, on: connection)
    }

    /// Runs the async handler and waits for it on this (MHD's) thread.
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let result = Mutex<HTTPResponse?>(nil)
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        Task {
            let response = await handler(request)
            result.withLock { $0 = response }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 } ?? .error(WebError(status: 500, code: "internal", message: "no answer"))
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

    private func lookup(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
        library.lookupConnectionValue(connection, kind, key).map { String(cString: $0) }
    }

    private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercased: Bool) -> [String: String] {
        let collector = ValueCollector(lowercased: lowercased)
        let pointer = Unmanaged.passUnretained(collector).toOpaque()
        _ = library.getConnectionValues(connection, kind, collectValue, pointer)
        return collector.values
    }
}

/// The body collected so far, and whether the request was answered already.
private final class RequestContext {
    var body: [UInt8] = []
    /// The bytes of the body received, kept or not.
    var received = 0
    var answered = false
}

private final class ValueCollector {
    let lowercased: Bool
    var values: [String: String] = [:]
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
    Unmanaged<RequestContext>.fromOpaque(raw).release()
    slot.pointee = nil
}

private let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key)
    collector.values[collector.lowercased ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
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
