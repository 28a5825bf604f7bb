import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ports on the loopback interface for the servers tests start.
public enum LoopbackPort {
    /// Why no port could be had.
    public struct Failure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// A port on 127.0.0.1 that was free a moment ago (bound to port 0, read, closed): for a server
    /// a test starts, or as a port nothing listens on.
    public static func free() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(message: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard let port = bind(descriptor) else {
            throw Failure(message: "bind 127.0.0.1:0: \(String(cString: strerror(errno)))")
        }
        return port
    }

    /// Binds `descriptor` (an `AF_INET` socket) to 127.0.0.1 on a port the system chooses, and
    /// returns that port; nil when it cannot be bound.
    public static func bind(_ descriptor: Int32) -> Int? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
