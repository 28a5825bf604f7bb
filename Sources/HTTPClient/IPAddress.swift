#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address, as ``FetchPolicy`` checks the address a connection is about to go to.
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address in network order: 4 bytes (IPv4) or 16 (IPv6).
    package let bytes: [UInt8]

    /// An address of 4 or 16 bytes; nil for any other length.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address written in `text`: dotted decimal IPv4 (four numbers 0…255, without leading
    /// zeros, which some readers take as octal) or IPv6 as `inet_pton` reads it (brackets and a zone
    /// id are not part of it). Nil for anything else: `127.1`, `0x7f.0.0.1` and `2130706433` are
    /// names here, not addresses.
    package init?(_ text: String) {
        if text.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &address) { Array($0) }
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var result: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), part.allSatisfy(\.isNumber),
                part.count == 1 || part.first != "0", let value = UInt8(part)
            else { return nil }
            result.append(value)
        }
        bytes = result
    }

    /// Whether it is an IPv4 address.
    package var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2) stands
    /// for — the one a connection to it reaches —, else the address itself.
    package var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else {
            return self
        }
        return IPAddress(bytes: Array(bytes[12..<16]))!
    }

    /// Whether the first `prefixLength` bits are those of `network` (of the same family).
    package func isWithin(_ network: IPAddress, prefixLength: Int) -> Bool {
        guard network.bytes.count == bytes.count, (0...bytes.count * 8).contains(prefixLength) else { return false }
        var bits = prefixLength
        for (mine, theirs) in zip(bytes, network.bytes) where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if mine & mask != theirs & mask { return false }
            bits -= 8
        }
        return true
    }

    /// Why a fetch the policy restricts must not go to this address — the kind of range it is in
    /// (loopback, private, link-local, …) — or nil for a public unicast address. An IPv6 address
    /// that carries an IPv4 one (mapped, translated, NAT64's well-known prefix, 6to4) is judged by
    /// that IPv4 address; IPv6 outside global unicast (2000::/3) is never public.
    package var specialUse: String? {
        isIPv4 ? Self.special(ipv4: bytes) : specialIPv6
    }

    private var specialIPv6: String? {
        let zeros = { (range: Range<Int>) in bytes[range].allSatisfy { $0 == 0 } }
        // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765 §2.1).
        if zeros(0..<10), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return Self.special(ipv4: Array(bytes[12..<16])).map { "IPv4-mapped, \($0)" }
        }
        if zeros(0..<8), bytes[8] == 0xFF, bytes[9] == 0xFF, zeros(10..<12) {
            return Self.special(ipv4: Array(bytes[12..<16])).map { "IPv4-translated, \($0)" }
        }
        // 64:ff9b::/96, NAT64's well-known prefix (RFC 6052 §2.1).
        if bytes[0..<4] == [0x00, 0x64, 0xFF, 0x9B], zeros(4..<12) {
            return Self.special(ipv4: Array(bytes[12..<16])).map { "NAT64, \($0)" }
        }
        if zeros(0..<15) { return bytes[15] == 0 ? "unspecified (::)" : bytes[15] == 1 ? "loopback (::1)" : "reserved" }
        // 2002::/16, 6to4 (RFC 3056): the IPv4 address of the relay it goes through.
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return Self.special(ipv4: Array(bytes[2..<6])).map { "6to4, \($0)" }
        }
        let table: [(prefix: [UInt8], length: Int, name: String)] = [
            ([0xFC], 7, "unique local (fc00::/7)"),
            ([0xFE, 0x80], 10, "link-local (fe80::/10)"),
            ([0xFE, 0xC0], 10, "site-local (fec0::/10)"),
            ([0xFF], 8, "multicast (ff00::/8)"),
            ([0x20, 0x01, 0x0D, 0xB8], 32, "documentation (2001:db8::/32)"),
            ([0x3F, 0xFF], 20, "documentation (3fff::/20)"),
            ([0x20, 0x01], 23, "IETF protocol assignments (2001::/23: Teredo, benchmarking …)"),
        ]
        for entry in table {
            let network = IPAddress(bytes: entry.prefix + [UInt8](repeating: 0, count: 16 - entry.prefix.count))!
            if isWithin(network, prefixLength: entry.length) { return entry.name }
        }
        // Global unicast is 2000::/3; everything else is reserved or special.
        return bytes[0] & 0xE0 == 0x20 ? nil : "not global unicast (outside 2000::/3)"
    }

    /// The special range an IPv4 address is in (RFC 6890's registry), or nil.
    private static func special(ipv4 bytes: [UInt8]) -> String? {
        if bytes == [0, 0, 0, 0] { return "unspecified (0.0.0.0)" }
        if bytes == [255, 255, 255, 255] { return "broadcast (255.255.255.255)" }
        let table: [(network: [UInt8], length: Int, name: String)] = [
            ([0, 0, 0, 0], 8, "this network (0.0.0.0/8)"),
            ([10, 0, 0, 0], 8, "private (10.0.0.0/8)"),
            ([100, 64, 0, 0], 10, "shared address space (100.64.0.0/10)"),
            ([127, 0, 0, 0], 8, "loopback (127.0.0.0/8)"),
            ([169, 254, 0, 0], 16, "link-local (169.254.0.0/16)"),
            ([172, 16, 0, 0], 12, "private (172.16.0.0/12)"),
            ([192, 0, 0, 0], 24, "IETF protocol assignments (192.0.0.0/24)"),
            ([192, 0, 2, 0], 24, "documentation (192.0.2.0/24)"),
            ([192, 88, 99, 0], 24, "6to4 relay anycast (192.88.99.0/24)"),
            ([192, 168, 0, 0], 16, "private (192.168.0.0/16)"),
            ([198, 18, 0, 0], 15, "benchmarking (198.18.0.0/15)"),
            ([198, 51, 100, 0], 24, "documentation (198.51.100.0/24)"),
            ([203, 0, 113, 0], 24, "documentation (203.0.113.0/24)"),
            ([224, 0, 0, 0], 4, "multicast (224.0.0.0/4)"),
            ([240, 0, 0, 0], 4, "reserved (240.0.0.0/4)"),
        ]
        let address = IPAddress(bytes: bytes)!
        return table.first { address.isWithin(IPAddress(bytes: $0.network)!, prefixLength: $0.length) }?.name
    }

    /// Dotted decimal, or IPv6 as `inet_ntop` writes it.
    package var description: String {
        if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address and port of a socket address (`AF_INET` or `AF_INET6`) of `length` bytes; nil
    /// for another family or a short one.
    package static func socketAddress(_ pointer: UnsafeRawPointer, length: Int) -> (IPAddress, port: Int)? {
        guard length >= MemoryLayout<sa_family_t>.size else { return nil }
        let family = Int32(pointer.loadUnaligned(as: sa_family_t.self))
        if family == AF_INET, length >= MemoryLayout<sockaddr_in>.size {
            let address = pointer.loadUnaligned(as: sockaddr_in.self)
            let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
            return (IPAddress(bytes: bytes)!, Int(UInt16(bigEndian: address.sin_port)))
        }
        if family == AF_INET6, length >= MemoryLayout<sockaddr_in6>.size {
            let address = pointer.loadUnaligned(as: sockaddr_in6.self)
            let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            return (IPAddress(bytes: bytes)!, Int(UInt16(bigEndian: address.sin6_port)))
        }
        return nil
    }
}
