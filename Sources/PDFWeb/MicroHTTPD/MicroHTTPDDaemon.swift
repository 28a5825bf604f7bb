import CMicroHTTPD
import CShims
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// libmicrohttpd's daemon behind a ``ConnectionGate``: the gate accepts each connection and hands
/// it on once its request head has arrived whole and well formed; libmicrohttpd then gives it a
/// thread, reads the request and writes one answer, and closes the connection (`Connection: close`
/// on every answer: the next request comes on a new connection, whose head the gate checks again).
///
/// Each request is checked from its head alone first (the admission: credential, `Host`, origin —
/// a refusal is answered before any body is read); its body is collected as it arrives (413 as
/// soon as it passes the limit), then it is handed to the async handler on Swift's pool while the
/// connection's thread waits for the answer — MHD's threads wait, the cooperative pool never does.
final class MicroHTTPDDaemon: Sendable {
    typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse
    /// Checks a request from its head (no body yet): the answer that refuses it, or nil.
    typealias Admission = @Sendable (HTTPRequest) -> HTTPResponse?

    /// How many request bodies are received at once, and how large.
    struct UploadLimits: Sendable {
        /// The largest body of one request.
        var bodyBytes: Int
        /// Bodies being received or answered at once; beyond, `503` at once.
        var concurrentBodies: Int
        /// The bytes of every body held at once; beyond, the body is dropped and answered `503`.
        var totalBytes: Int
    }

    /// How many connections, for how long, with how much memory.
    struct ConnectionLimits: Sendable {
        /// Requests under way at once (a thread each); beyond, the gate answers `503`.
        var requests: Int
        /// The connections waiting for their head (``ConnectionGate``).
        var gate: ConnectionGate.Limits
        /// A request whose body or answer moves no byte for this long is closed.
        var idleTimeout: Duration
        /// libmicrohttpd's memory for one connection (its head, its fields, a piece of its body).
        var memory: Int
    }

    let handler: Handler
    let admission: Admission
    let limits: UploadLimits
    let connectionLimits: ConnectionLimits
    var uploadLimit: Int { limits.bodyBytes }
    /// Seconds between `: keep-alive` comments on an event stream.
    let keepAliveInterval: Double
    /// The running daemon's address (0 when stopped): `OpaquePointer` is not `Sendable`.
    private let daemon = Mutex<Int>(0)
    /// The requests under way: counted when the gate hands a connection on, and no longer once its
    /// request is over (``requestEnded(_:)``), so that a place is free again at once — libmicrohttpd's
    /// own counts wait for its thread to clean the connection up, seconds later under load.
    private let inFlight = Mutex(InFlight())
    private let gate = Mutex<ConnectionGate?>(nil)
    /// The bodies and their bytes held now.
    let uploads = Mutex<(count: Int, bytes: Int)>((0, 0))

    init(
        limits: UploadLimits, connections: ConnectionLimits, keepAliveInterval: Double,
        admission: @escaping Admission, handler: @escaping Handler
    ) {
        self.limits = limits
        self.connectionLimits = connections
        self.keepAliveInterval = keepAliveInterval
        self.admission = admission
        self.handler = handler
    }

    deinit { stop() }

    /// The library's functions: every call comes after `start` opened it.
    var library: MicroHTTPDLibrary {
        switch MicroHTTPDLibrary.shared {
        case .success(let library): library
        case .failure(let error): fatalError("libmicrohttpd is used before a server started: \(error.message)")
        }
    }

    /// libmicrohttpd's own limit on connections, a guard only: it counts a connection until its
    /// thread has been cleaned up, which lags behind when requests come fast, so the limits met are
    /// the daemon's own count (``InFlight``).
    var daemonConnectionLimit: Int { connectionLimits.requests * 4 }

    /// Seconds without a byte before an event stream is closed: two keep-alive intervals, or the
    /// idle timeout when that is longer.
    var eventStreamTimeout: UInt32 {
        let keepAlive = keepAliveInterval.isFinite ? keepAliveInterval * 2 + 1 : 3600
        return UInt32(min(3600, max(Double(connectionLimits.idleTimeout.components.seconds), keepAlive)))
    }

    /// Listens on `host` (an IPv4 or IPv6 literal, or `localhost`) and `port` (0: any free port);
    /// returns the port bound. The socket is made here (so the port bound is known); the gate
    /// accepts on it and hands each connection whose head passed to libmicrohttpd.
    func start(host: String, port: Int) throws(WebError) -> Int {
        if case .failure(let error) = MicroHTTPDLibrary.shared { throw error }
        guard (0...65535).contains(port) else { throw WebError.badRequest("port \(port) is out of range") }
        let literal = host == "localhost" ? "127.0.0.1" : String(host.filter { $0 != "[" && $0 != "]" })
        let (socket, bound) = try Self.listen(literal, port)
        let flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
            | MHD_USE_AUTO.rawValue | MHD_USE_ITC.rawValue | MHD_USE_NO_LISTEN_SOCKET.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        let context = Unmanaged.passUnretained(self).toOpaque()
        let completed = unsafeBitCast(requestCompleted, to: UnsafeRawPointer.self)
        let idle = max(1, min(3600, connectionLimits.idleTimeout.components.seconds))
        let arguments: [any CVarArg] = [
            // The logger first: libmicrohttpd logs to standard error until it has one.
            MHD_OPTION.EXTERNAL_LOGGER.rawValue, OpaquePointer(autograph_http_log_callback()),
            OpaquePointer(context),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, OpaquePointer(completed), OpaquePointer(context),
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(daemonConnectionLimit),
            MHD_OPTION.NOTIFY_CONNECTION.rawValue,
            OpaquePointer(unsafeBitCast(connectionNotified, to: UnsafeRawPointer.self)), OpaquePointer(context),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(idle),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, connectionLimits.memory,
            MHD_OPTION.UNESCAPE_CALLBACK.rawValue, OpaquePointer(unsafeBitCast(unescape, to: UnsafeRawPointer.self)),
            OpaquePointer(context),
            MHD_OPTION.END.rawValue,
        ]
        let started = withVaList(arguments) { list in
            library.startDaemon(
                flags, 0, nil, nil, accessHandler, context, unsafeBitCast(list, to: UnsafeMutableRawPointer.self))
        }
        guard let started else {
            close(socket)
            throw WebError.internal("libmicrohttpd did not start on \(host):\(bound)")
        }
        daemon.withLock { $0 = Int(bitPattern: started) }
        do {
            let gate = try ConnectionGate(listener: socket, limits: connectionLimits.gate) {
                [unowned self] socket, address, length in
                handOff(socket, address, length)
            }
            self.gate.withLock { $0 = gate }
            gate.start()
        } catch {
            close(socket)
            stop()
            throw error
        }
        return bound
    }

    /// Gives a connection whose head passed to libmicrohttpd, unless as many requests as allowed
    /// are under way, in all or from its address (the gate then answers `503`).
    private func handOff(_ socket: Int32, _ address: sockaddr_storage, _ length: socklen_t) -> ConnectionGate.HandOff {
        guard let running = OpaquePointer(bitPattern: daemon.withLock({ $0 })) else { return .busy }
        let client = ClientAddress(address)
        let admitted = inFlight.withLock { state in
            // A socket of this number still counted was closed by libmicrohttpd without a word (it
            // refused it): its place is free.
            state.release(socket)
            return state.admit(
                socket, client, total: connectionLimits.requests, perAddress: connectionLimits.gate.perAddress)
        }
        guard admitted else { return .busy }
        var address = address
        // libmicrohttpd closes the socket itself when it refuses it.
        let added = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                library.addConnection(running, socket, $0, length)
            }
        }
        if added != .YES { inFlight.withLock { $0.release(socket) } }
        return .taken
    }

    /// The request on `connection` is over (or the connection closed before one began): its place
    /// among those under way is free. Called on the connection's thread, or on libmicrohttpd's when
    /// it cleans the connection up, before the socket is closed: its number is not another's yet.
    func requestEnded(_ connection: OpaquePointer) {
        guard let socket = library.connectionInfo(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd
        else { return }
        inFlight.withLock { $0.release(socket) }
    }

    /// The requests handed to libmicrohttpd and not over yet, by socket and by client address.
    struct InFlight {
        var total = 0
        var byClient: [ClientAddress: Int] = [:]
        var bySocket: [Int32: ClientAddress] = [:]

        /// Counts `socket` of `client`; false when that would pass `total` or `perAddress` (0: none).
        mutating func admit(_ socket: Int32, _ client: ClientAddress, total limit: Int, perAddress: Int) -> Bool {
            guard total < limit, perAddress == 0 || byClient[client, default: 0] < perAddress else { return false }
            total += 1
            byClient[client, default: 0] += 1
            bySocket[socket] = client
            return true
        }

        /// No longer counts `socket` (nothing when it is not counted).
        mutating func release(_ socket: Int32) {
            guard let client = bySocket.removeValue(forKey: socket) else { return }
            total -= 1
            let left = byClient[client, default: 1] - 1
            byClient[client] = left > 0 ? left : nil
        }
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
        // A backlog for floods: the gate drains it quickly, and drops the oldest waiting beyond its limits.
        let bound = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && Glibc.listen(socket, 1024) == 0
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

    /// Stops accepting (the gate closes the listening socket and the connections still waiting for
    /// their head), then stops libmicrohttpd and waits for its connection threads (event streams
    /// must be finished first).
    func stop() {
        let gate = self.gate.withLock { value in
            defer { value = nil }
            return value
        }
        gate?.stop()
        let address = daemon.withLock { value in
            defer { value = 0 }
            return value
        }
        guard let running = OpaquePointer(bitPattern: address) else { return }
        library.stopDaemon(running)
    }
}
