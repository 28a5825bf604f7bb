import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP listener on 127.0.0.1 that records every connection and every request it gets
/// (method and target), and answers each with an empty response of one status: for tests that
/// a URL a document names is, or is not, fetched.
///
/// ```swift
/// let catcher = try RequestCatcher()
/// defer { catcher.stop() }
/// // … name catcher.base + "/ocsp" in a certificate, complete a document …
/// #expect(catcher.requests.isEmpty)
/// ```
public final class RequestCatcher: Sendable {
    /// One request received.
    public struct Request: Sendable, CustomStringConvertible {
        /// `GET`, `POST` …
        public var method: String
        /// The request target (`/ocsp`, `/crl?x=1`).
        public var target: String
        public var description: String { "\(method) \(target)" }
    }

    /// The port it listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let status: Int
    private let state = Mutex<(connections: Int, requests: [Request], stopped: Bool)>((0, [], false))

    /// The requests received so far, in order.
    public var requests: [Request] { state.withLock { $0.requests } }
    /// The connections accepted so far (a request or not).
    public var connections: Int { state.withLock { $0.connections } }

    /// Listens on a free port of 127.0.0.1 and answers every request with `status` and no body.
    /// - Throws: ``LoopbackPort/Failure`` when no socket can be bound.
    public init(status: Int = 404) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            throw LoopbackPort.Failure(message: "socket: \(String(cString: strerror(errno)))")
        }
        guard let port = LoopbackPort.bind(descriptor), listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw LoopbackPort.Failure(message: "bind or listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        self.listener = descriptor
        self.port = port
        self.status = status
        Thread { [self] in serve() }.start()
    }

    deinit { stop() }

    /// Stops listening (the port is closed within a tenth of a second).
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    private func serve() {
        defer { close(listener) }
        while !state.withLock({ $0.stopped }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            state.withLock { $0.connections += 1 }
            answer(connection)
            close(connection)
        }
    }

    /// Reads one request (its head, then as many body bytes as `Content-Length` says, all within
    /// 2 s and 1 MB), records it and answers.
    private func answer(_ connection: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let end = Date().addingTimeInterval(2)
        var head: String?
        var wanted = Int.max
        while received.count < wanted, received.count < 1 << 20, Date() < end {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 else { break }
            guard poller.revents != 0 else { continue }
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[0..<count]
            if head == nil, let split = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                let text = String(decoding: received[..<split.lowerBound], as: UTF8.self)
                head = text
                let length = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }
                wanted = split.upperBound + (length ?? 0)
            }
        }
        guard let head else { return }
        let line = head.prefix { $0 != "\r" }.split(separator: " ")
        state.withLock {
            $0.requests.append(Request(method: String(line.first ?? ""), target: String(line.dropFirst().first ?? "")))
        }
        let reply = "HTTP/1.1 \(status) Caught\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = reply.withCString { write(connection, $0, strlen($0)) }
    }
}
