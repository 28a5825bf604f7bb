import CMicroHTTPD
import CShims

#if canImport(Glibc)
    import Glibc
#endif

// The C callbacks libmicrohttpd calls, each on the connection's own thread (thread per connection).

let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, url, method, _, uploadData, uploadSize, slot in
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    let daemon = Unmanaged<MicroHTTPDDaemon>.fromOpaque(cls).takeUnretainedValue()
    return daemon.access(
        connection, url: url.map { String(cString: $0) } ?? "/", method: method.map { String(cString: $0) } ?? "GET",
        uploadData: uploadData, uploadSize: uploadSize, context: slot)
}

let requestCompleted: MHD_RequestCompletedCallback = { cls, connection, slot, _ in
    autograph_http_set_thread_socket(-1)
    if let cls, let connection {
        Unmanaged<MicroHTTPDDaemon>.fromOpaque(cls).takeUnretainedValue().requestEnded(connection)
    }
    guard let slot, let raw = slot.pointee else { return }
    let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
    context.daemon.finished(context)
    slot.pointee = nil
}

/// A connection closed: for one whose request never began (the client left first), its place among
/// the requests under way is free now. libmicrohttpd calls this before it closes the socket.
let connectionNotified:
    @convention(c) (
        UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        MHD_ConnectionNotificationCode
    ) -> Void = { cls, connection, _, code in
        guard code == .CONNECTION_NOTIFY_CLOSED, let cls, let connection else { return }
        Unmanaged<MicroHTTPDDaemon>.fromOpaque(cls).takeUnretainedValue().requestEnded(connection)
    }

/// Decodes `%HH` escapes of the path and query in place, as MHD's own would, except that a byte
/// below 0x20 (NUL above all) or 0x7F becomes 0x7F: MHD hands the path on as a C string, so `%00`
/// would silently cut it (`/api/signatures/1%00x` read as `…/1`); DEL makes the router refuse it.
let unescape: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int =
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

final class ValueCollector {
    let lowercased: Bool
    var values: [String: String] = [:]
    var repeated: Set<String> = []
    init(lowercased: Bool) { self.lowercased = lowercased }
}

let collectValue: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key)
    let stored = collector.lowercased ? name.lowercased() : name
    if collector.values[stored] != nil { collector.repeated.insert(stored) }
    collector.values[stored] = value.map { String(cString: $0) } ?? ""
    return .YES
}

/// An event stream being written: the part of a chunk that did not fit MHD's buffer.
final class EventStreamState {
    let subscription: EventSubscription
    let keepAlive: Double
    var pending: [UInt8] = []
    var offset = 0

    init(subscription: EventSubscription, keepAlive: Double) {
        self.subscription = subscription
        self.keepAlive = keepAlive
    }
}

let eventReader: MHD_ContentReaderCallback = { cls, _, buffer, max in
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

let eventFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let stream = Unmanaged<EventStreamState>.fromOpaque(cls).takeRetainedValue()
    stream.subscription.cancel()
}
