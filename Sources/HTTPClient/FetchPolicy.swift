/// Where a ``CurlTransport`` may connect: anywhere a URL says (``unrestricted``, a person's own
/// command), or — for fetches a document asks for on a server, the addresses a certificate names
/// — only public addresses on a few ports, unless the operator allowed a destination.
///
/// A restricted transfer is checked twice. Before it starts, the URL as libcurl parses it (the
/// same parsed URL is then handed to libcurl, so no second reading can differ): http or https, a
/// port allowed. Then every connection libcurl opens — each address a name resolves to, each
/// attempt — is checked where the socket is made (`CURLOPT_OPENSOCKETFUNCTION`): the address
/// checked is the one connected to, so a name that resolves again to another address (DNS
/// rebinding) gains nothing. Loopback, private (RFC 1918, 100.64/10, fc00::/7), link-local,
/// unspecified, multicast, broadcast, documentation and reserved addresses, and IPv6 forms of such
/// IPv4 addresses, are refused (``IPAddress/specialUse``). No proxy from the environment is used
/// (it would connect in our place), no redirect is followed, and the time of each exchange is
/// bounded by ``timeLimit``.
package struct FetchPolicy: Sendable, Equatable {
    /// A destination the operator allows besides public addresses on the allowed ports.
    package enum Destination: Sendable, Hashable, CustomStringConvertible {
        /// A host name as URLs write it (compared without case): every address it resolves to,
        /// on `port` (nil: the allowed ports).
        case host(String, port: Int?)
        /// One address, on `port` (nil: the allowed ports).
        case address(IPAddress, port: Int?)
        /// Every address of a network (CIDR), on the allowed ports.
        case network(IPAddress, prefixLength: Int)

        /// Reads `HOST[:PORT]`, `ADDRESS[:PORT]` (IPv6 in brackets when a port follows) or
        /// `ADDRESS/PREFIX` (CIDR).
        /// - Throws: `invalidRequest` when it is none of these, a port is not 1…65535, a prefix
        ///   is longer than the address, or a name is one resolvers read as a number (`2130706433`).
        package init(parsing text: String) throws(HTTPClientError) {
            let bad = HTTPClientError(
                .invalidRequest,
                "\"\(text.prefix(100))\" is not HOST[:PORT], ADDRESS[:PORT] or a CIDR network (10.1.0.0/16, fd00::/8)")
            if let slash = text.firstIndex(of: "/") {
                let addressText = text[..<slash].trimmingBrackets
                guard let address = IPAddress(String(addressText)), let length = Int(text[text.index(after: slash)...]),
                    (0...address.bytes.count * 8).contains(length), !text[text.index(after: slash)...].hasPrefix("+")
                else { throw bad }
                self = .network(address, prefixLength: length)
                return
            }
            var host = Substring(text)
            var port: Int?
            if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
                host = text[text.index(after: text.startIndex)..<close]
                let rest = text[text.index(after: close)...]
                if !rest.isEmpty {
                    guard rest.hasPrefix(":") else { throw bad }
                    port = try Self.port(rest.dropFirst(), bad)
                }
                guard IPAddress(String(host)) != nil else { throw bad }
            } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                port = try Self.port(text[text.index(after: colon)...], bad)
            }
            if let address = IPAddress(String(host)) {
                self = .address(address, port: port)
                return
            }
            // A name: letters, digits, hyphens and dots, and a last label that is no number (a
            // resolver reads `127.1` and `0x7f000001` as addresses).
            let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false)
            guard !host.isEmpty, host.count <= 253,
                labels.allSatisfy({
                    (1...63).contains($0.count) && $0.first != "-" && $0.last != "-"
                        && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
                }),
                let last = labels.last, last.first?.isLetter == true, !last.hasPrefix("0x")
            else { throw bad }
            self = .host(host.lowercased(), port: port)
        }

        private static func port(_ text: Substring, _ bad: HTTPClientError) throws(HTTPClientError) -> Int {
            guard let value = Int(text), !text.hasPrefix("+"), (1...65535).contains(value) else { throw bad }
            return value
        }

        package var description: String {
            switch self {
            case .host(let name, let port): port.map { "\(name):\($0)" } ?? name
            case .address(let address, let port):
                port.map { address.isIPv4 ? "\(address):\($0)" : "[\(address)]:\($0)" } ?? "\(address)"
            case .network(let address, let length): "\(address)/\(length)"
            }
        }
    }

    /// Whether connections are checked at all; false: as the URL says (the other members are unused).
    package var isRestricted: Bool
    /// The ports a public address may be reached on (80 and 443).
    package var allowedPorts: Set<Int> = [80, 443]
    /// Destinations allowed besides public addresses (the operator's `--allow-fetch-to`).
    package var allowed: [Destination] = []
    /// The longest one restricted exchange may take, connecting included (a request's longer
    /// timeout is shortened to it).
    package var timeLimit: Duration = .seconds(10)
    /// The longest connecting may take in a restricted exchange.
    package var connectTimeLimit: Duration = .seconds(5)

    /// Every URL as it says: what a person's own command fetches.
    package static let unrestricted = FetchPolicy(isRestricted: false)

    /// Public addresses on `ports`, and the destinations in `allowed`.
    package static func publicOnly(ports: Set<Int> = [80, 443], allowing allowed: [Destination] = []) -> FetchPolicy {
        FetchPolicy(isRestricted: true, allowedPorts: ports, allowed: allowed)
    }

    /// Why a URL of `host` (as libcurl reads it: lowercased here, IPv6 without brackets) and `port`
    /// is refused before any connection, or nil; `byName` says whether a ``Destination/host(_:port:)``
    /// allowed it (every address it resolves to is then allowed).
    package func check(host: String, port: Int) -> (refusal: String?, byName: Bool) {
        guard isRestricted else { return (nil, false) }
        let name = host.lowercased()
        for case .host(let allowedName, let allowedPort) in allowed where allowedName == name {
            if allowedPort.map({ $0 == port }) ?? allowedPorts.contains(port) { return (nil, true) }
        }
        let addressPorts = allowed.compactMap { destination -> Int? in
            if case .address(_, let port?) = destination { return port }
            return nil
        }
        guard allowedPorts.contains(port) || addressPorts.contains(port) else {
            let ports = allowedPorts.sorted().map(String.init).joined(separator: ", ")
            return ("port \(port) is not fetched from here (only \(ports), and the destinations allowed)", false)
        }
        return (nil, false)
    }

    /// Why a connection to `address`:`port` is refused, or nil; `byName`: the URL's host was
    /// allowed by name (its port was checked before).
    package func check(connectingTo address: IPAddress, port: Int, byName: Bool) -> String? {
        guard isRestricted, !byName else { return nil }
        let connected = address
        let address = address.unmapped
        for destination in allowed {
            switch destination {
            case .address(let allowedAddress, let allowedPort) where allowedAddress.unmapped == address:
                if allowedPort.map({ $0 == port }) ?? allowedPorts.contains(port) { return nil }
            case .network(let network, let length)
            where address.isWithin(network, prefixLength: length) || connected.isWithin(network, prefixLength: length):
                if allowedPorts.contains(port) { return nil }
            default: continue
            }
        }
        let shown = address.isIPv4 ? "\(address):\(port)" : "[\(address)]:\(port)"
        if let special = address.specialUse {
            return "\(shown) is \(special), which is not fetched from here"
        }
        guard allowedPorts.contains(port) else { return "\(shown): port \(port) is not fetched from here" }
        return nil
    }
}

extension Substring {
    /// Without one pair of enclosing brackets (`[fd00::]` → `fd00::`).
    fileprivate var trimmingBrackets: Substring {
        hasPrefix("[") && hasSuffix("]") ? dropFirst().dropLast() : self
    }
}
