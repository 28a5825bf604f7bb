import Dispatch
import PDFCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The server's front door: accepts each connection, waits for its request head without giving it a
/// thread, checks the head (``RequestHead``) and only then hands the connection to libmicrohttpd.
///
/// So nothing that has not sent a whole, well-formed head within ``Limits/headerTimeout`` holds one
/// of libmicrohttpd's connections (a thread each): idle sockets, heads trickled a byte at a time,
/// and malformed heads are this thread's, and are closed, answered (`400`, `408`, `414`, `431`,
/// `501`, `505`, with ``SecurityHeaders``) and closed, or dropped when they pass the limits — the
/// oldest first, so a flood of new connections cannot keep a person's out for longer than the
/// person takes to send a head. libmicrohttpd only ever reads heads that passed, so its own error
/// pages for heads are never sent.
///
/// The head is read with `MSG_PEEK`: it stays in the socket for libmicrohttpd to read. The receive
/// low-water mark (`SO_RCVLOWAT`) is set one past the bytes seen, so `poll` wakes only when more
/// arrive, and back to 1 before the connection is handed on.
final class ConnectionGate: Sendable {
    /// How many connections may wait, and how long.
    struct Limits: Sendable {
        /// From the connection to the end of its request head.
        var headerTimeout: Duration
        /// Connections waiting for their head at once; beyond, the oldest is closed.
        var waiting: Int
        /// Connections waiting from one client address at once (0: no limit); beyond, its oldest is closed.
        var perAddress: Int
        /// The head's limits.
        var head: RequestHead.Limits
    }

    /// What became of a connection handed on.
    enum HandOff {
        /// libmicrohttpd owns the socket now (and closes it, also when it refuses it).
        case taken
        /// Too many requests under way: the gate answers `503`.
        case busy
    }

    private let listener: Int32
    private let limits: Limits
    private let handOff: @Sendable (Int32, sockaddr_storage, socklen_t) -> HandOff
    /// A pipe whose write end wakes the gate's thread to stop.
    private let wake: (read: Int32, write: Int32)
    private let started = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// A gate on `listener` (a listening socket, made non-blocking here); `handOff` gives a
    /// connection whose head passed to libmicrohttpd.
    init(
        listener: Int32, limits: Limits,
        handOff: @escaping @Sendable (Int32, sockaddr_storage, socklen_t) -> HandOff
    ) throws(WebError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw WebError.internal("cannot make the gate's pipe: \(String(cString: strerror(errno)))")
        }
        for socket in ends + [listener] { Self.setNonBlocking(socket) }
        self.listener = listener
        self.limits = limits
        self.handOff = handOff
        wake = (ends[0], ends[1])
    }

    /// Makes `socket` non-blocking and closed on `exec`.
    static func setNonBlocking(_ socket: Int32) {
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        _ = fcntl(socket, F_SETFD, fcntl(socket, F_GETFD) | FD_CLOEXEC)
    }

    /// Starts the gate's thread (once).
    func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        DispatchQueue(label: "autograph.http.gate", qos: .userInitiated).async { [self] in
            var state = GateState(limits: limits, handOff: handOff)
            state.run(listener: listener, wake: wake.read, stopped: stopped)
            finished.signal()
        }
    }

    /// Stops accepting, closes the connections still waiting and the listening socket; waits for
    /// the gate's thread. Once only.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        if started.load(ordering: .acquiring) { finished.wait() }
        close(wake.read)
        close(wake.write)
        close(listener)
    }
}

/// A client's address without its port: the key of the per-address limit.
struct ClientAddress: Hashable {
    let high: UInt64
    let low: UInt64

    init(_ storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            high = 0
            low = UInt64(address.sin_addr.s_addr)
        case AF_INET6:
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
            low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
        default:
            high = UInt64.max
            low = UInt64.max
        }
    }
}

/// The gate's thread's own state: the connections waiting for their head, or being closed after
/// the gate answered them.
private struct GateState {
    struct Waiting {
        let socket: Int32
        let address: sockaddr_storage
        let length: socklen_t
        let client: ClientAddress
        let arrived: ContinuousClock.Instant
        /// The bytes of the head seen so far.
        var seen = 0
        /// Answered by the gate: read and dropped until the client closes, or until then.
        var closingUntil: ContinuousClock.Instant?
    }

    let limits: ConnectionGate.Limits
    let handOff: @Sendable (Int32, sockaddr_storage, socklen_t) -> ConnectionGate.HandOff
    var connections: [Int32: Waiting] = [:]
    var perClient: [ClientAddress: Int] = [:]
    var buffer: [UInt8]
    /// Out of descriptors with none to give back: the listening socket is left alone until then.
    var acceptingAgain: ContinuousClock.Instant?

    /// How long an answered connection is read (and dropped) before it is closed: the client sees
    /// the answer rather than a reset for bytes it sent that nobody read.
    static let lingering: Duration = .seconds(1)
    /// Connections accepted in one turn of the loop, so that those waiting are read too.
    static let acceptsPerTurn = 64

    init(
        limits: ConnectionGate.Limits,
        handOff: @escaping @Sendable (Int32, sockaddr_storage, socklen_t) -> ConnectionGate.HandOff
    ) {
        self.limits = limits
        self.handOff = handOff
        buffer = [UInt8](repeating: 0, count: limits.head.headBytes + 1)
    }

    mutating func run(listener: Int32, wake: Int32, stopped: borrowing Atomic<Bool>) {
        let readable = Int16(POLLIN) | Int16(0x2000)  // POLLRDHUP
        var descriptors: [pollfd] = []
        while !stopped.load(ordering: .acquiring) {
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
            if let until = acceptingAgain, until <= .now { acceptingAgain = nil }
            descriptors.append(pollfd(fd: listener, events: acceptingAgain == nil ? Int16(POLLIN) : 0, revents: 0))
            for socket in connections.keys { descriptors.append(pollfd(fd: socket, events: readable, revents: 0)) }
            let wait = [nextDeadline(), acceptingAgain].compactMap { $0 }.min().map(Self.milliseconds(until:)) ?? 1000
            let count = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), wait) }
            if stopped.load(ordering: .acquiring) { break }
            if count > 0 {
                for descriptor in descriptors.dropFirst(2) where descriptor.revents != 0 {
                    serve(descriptor.fd, ended: descriptor.revents & ~Int16(POLLIN) != 0)
                }
                if descriptors[1].revents != 0 { accept(from: listener) }
            }
            expire()
        }
        for socket in Array(connections.keys) { drop(socket) }
    }

    // MARK: - Accepting

    mutating func accept(from listener: Int32) {
        for _ in 0..<Self.acceptsPerTurn {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
            }
            guard socket >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                // Out of descriptors: the oldest waiting connection makes room, else accepting
                // waits a moment (the listening socket stays readable: no turn without a pause).
                if errno == EMFILE || errno == ENFILE {
                    if let oldest = oldest(of: nil) { drop(oldest) } else { acceptingAgain = .now + .milliseconds(100) }
                }
                return
            }
            ConnectionGate.setNonBlocking(socket)
            let client = ClientAddress(storage)
            if limits.perAddress > 0 { makeRoom(of: client, below: limits.perAddress) }
            makeRoom(of: nil, below: max(1, limits.waiting))
            connections[socket] = Waiting(
                socket: socket, address: storage, length: length, client: client, arrived: .now)
            perClient[client, default: 0] += 1
            // The head often arrived with the connection.
            serve(socket)
        }
    }

    /// Closes the connections of `client` (of any client when nil) that came first until fewer
    /// than `limit` are left. Each is read once more before: a head that has arrived meanwhile is
    /// handed on, not lost — a person's connection, accepted a moment before its head came, among
    /// a flood of new ones from the same address.
    mutating func makeRoom(of client: ClientAddress?, below limit: Int) {
        while (client.map { perClient[$0, default: 0] } ?? connections.count) >= limit,
            let oldest = oldest(of: client)
        {
            if connections[oldest]?.closingUntil == nil { serve(oldest) }
            // Handed on, or answered (then closing, and closed now too).
            drop(oldest)
        }
    }

    /// The connection of `client` (any client when nil) that came first.
    func oldest(of client: ClientAddress?) -> Int32? {
        connections.values.filter { client == nil || $0.client == client }.min { $0.arrived < $1.arrived }?.socket
    }

    // MARK: - Reading heads

    /// Reads what arrived on `socket`: hands a whole head on, answers a refused one. `ended`: the
    /// client shut its side (or the socket failed), so a head not whole now never will be.
    mutating func serve(_ socket: Int32, ended: Bool = false) {
        guard var connection = connections[socket] else { return }
        if connection.closingUntil != nil {
            // Answered: read and drop until the client closes (a bounded amount a turn: a client
            // that keeps sending is closed at its deadline).
            for _ in 0..<16 {
                let count = buffer.withUnsafeMutableBytes {
                    recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count > 0 { continue }
                if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { drop(socket) }
                return
            }
            return
        }
        let count = buffer.withUnsafeMutableBytes {
            recv(socket, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT))
        }
        if count == 0 {
            drop(socket)  // the client left
            return
        }
        if count < 0 {
            if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { drop(socket) }
            return
        }
        let verdict = buffer.withUnsafeBytes { bytes in
            RequestHead.check(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), limits: limits.head)
        }
        switch verdict {
        case .incomplete:
            guard !ended else {
                drop(socket)
                return
            }
            connection.seen = count
            connections[socket] = connection
            setLowWaterMark(socket, count + 1)
        case .complete:
            setLowWaterMark(socket, 1)
            switch handOff(socket, connection.address, connection.length) {
            case .taken: forget(socket)
            case .busy: answer(socket, .busy("too many requests are under way"))
            }
        case .refused(let error):
            answer(socket, error)
        }
    }

    /// Sends `error` as this server's answer, with its security headers, then closes the connection
    /// once the client has read it (or after ``lingering``).
    mutating func answer(_ socket: Int32, _ error: WebError) {
        guard var connection = connections[socket] else { return }
        // What was only peeked is read now, so that closing does not reset the connection.
        for _ in 0..<4 {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count <= 0 { break }
        }
        var response = HTTPResponse.error(error)
        SecurityHeaders.apply(to: &response)
        let bytes = Self.wire(response)
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(socket, Int32(SHUT_WR))
        setLowWaterMark(socket, 1)
        connection.closingUntil = .now + Self.lingering
        connections[socket] = connection
    }

    /// Closes the connections past their deadline: `408` to one that sent part of a head, nothing
    /// to one that sent nothing.
    mutating func expire() {
        let now = ContinuousClock.now
        for connection in Array(connections.values) {
            if let until = connection.closingUntil {
                if now >= until { drop(connection.socket) }
            } else if now - connection.arrived >= limits.headerTimeout {
                if connection.seen > 0 {
                    answer(
                        connection.socket,
                        WebError(
                            .unavailable, code: "requestTimeout",
                            message: "the request head did not arrive within \(limits.headerTimeout)", status: 408))
                } else {
                    drop(connection.socket)
                }
            }
        }
    }

    /// The milliseconds from now to `deadline` (rounded up), from 0 to 1000: what `poll` waits.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = (deadline - .now).components
        let milliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(max(0, min(1000, milliseconds)))
    }

    func nextDeadline() -> ContinuousClock.Instant? {
        connections.values.map { $0.closingUntil ?? $0.arrived + limits.headerTimeout }.min()
    }

    // MARK: - Sockets

    func setLowWaterMark(_ socket: Int32, _ bytes: Int) {
        var value = Int32(clamping: bytes)
        setsockopt(socket, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Forgets `socket` without closing it (handed on).
    mutating func forget(_ socket: Int32) {
        guard let connection = connections.removeValue(forKey: socket) else { return }
        let left = perClient[connection.client, default: 1] - 1
        perClient[connection.client] = left > 0 ? left : nil
    }

    mutating func drop(_ socket: Int32) {
        guard connections[socket] != nil else { return }
        forget(socket)
        close(socket)
    }

    // MARK: - Writing an answer

    /// `response` as HTTP/1.1 bytes, with its length and `Connection: close`.
    static func wire(_ response: HTTPResponse) -> [UInt8] {
        let body: [UInt8]
        if case .bytes(let bytes) = response.body { body = bytes } else { body = [] }
        var text = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        for (name, value) in response.headers
        where !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) && name.lowercased() != "connection" {
            text += "\(name): \(value)\r\n"
        }
        text += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(text.utf8) + body
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Error"
        }
    }
}
