import HTTPClient
import PDFTestSupport
import Testing

/// The restricted transport (`FetchPolicy`): which addresses are special, which destinations an
/// operator may allow, and — against a real listener on loopback — that every way of writing a
/// loopback or private address, or a name that resolves to one, ends before a byte is sent.
@Suite("FetchPolicyTests: special addresses, allowed destinations, and no connection where the policy refuses")
struct FetchPolicyTests {
    @Test(
        "loopback, private, shared, link-local, unspecified, broadcast, multicast, reserved, documentation and their IPv6 forms are special",
        arguments: [
            "10.0.0.1", "10.255.255.255", "172.16.0.1", "172.31.255.254", "192.168.1.1", "127.0.0.1",
            "127.255.0.9", "169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3",
            "255.255.255.255", "224.0.0.1", "239.255.255.250", "240.0.0.1", "192.0.2.7", "198.51.100.1",
            "203.0.113.9", "198.18.0.1", "192.0.0.8", "::1", "::", "fc00::1", "fdff:ffff::1", "fe80::1",
            "febf::1", "fec0::1", "ff02::1", "2001:db8::1", "3fff::1", "2001::1", "::ffff:127.0.0.1",
            "::ffff:10.1.2.3", "::ffff:0:127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::",
            "2002:c0a8:101::1", "::127.0.0.1", "100::1", "5f00::1",
        ])
    func special(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.specialUse != nil, "\(text)")
    }

    @Test(
        "public unicast addresses, and IPv6 forms of public IPv4 addresses, are not",
        arguments: [
            "8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "169.253.1.1",
            "192.167.255.255", "223.255.255.254", "2606:4700:4700::1111", "2a00:1450:4001::200e",
            "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1",
        ])
    func ordinary(_ text: String) throws {
        let address = try #require(IPAddress(text))
        #expect(address.specialUse == nil, "\(text): \(address.specialUse ?? "")")
    }

    @Test("only dotted decimal and inet_pton's IPv6 are addresses: other numeric forms are not read as one")
    func strictAddresses() {
        for text in ["127.1", "2130706433", "0x7f.0.0.1", "017700000001", "0177.0.0.1", "127.0.0.01", "1.2.3.4.5", ""] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
        #expect(IPAddress("::ffff:7f00:1")?.unmapped == IPAddress("127.0.0.1"))
        #expect(IPAddress("fe80::1")?.description == "fe80::1")
    }

    @Test("--allow-fetch-to takes HOST[:PORT], ADDRESS[:PORT] and CIDR, and refuses the rest")
    func destinations() throws {
        let good: [(String, FetchPolicy.Destination)] = [
            ("ocsp.internal", .host("ocsp.internal", port: nil)),
            ("OCSP.Internal:8080", .host("ocsp.internal", port: 8080)),
            ("127.0.0.1:8080", .address(IPAddress("127.0.0.1")!, port: 8080)),
            ("10.0.0.5", .address(IPAddress("10.0.0.5")!, port: nil)),
            ("[::1]:8443", .address(IPAddress("::1")!, port: 8443)),
            ("fd00::1", .address(IPAddress("fd00::1")!, port: nil)),
            ("10.20.0.0/16", .network(IPAddress("10.20.0.0")!, prefixLength: 16)),
            ("fd00::/8", .network(IPAddress("fd00::")!, prefixLength: 8)),
        ]
        for (text, expected) in good {
            #expect(try FetchPolicy.Destination(parsing: text) == expected, "\(text)")
        }
        for text in [
            "", "127.1", "2130706433", "0x7f000001", "host:0", "host:70000", "host:+80", "10.0.0.0/33", "fd00::/129",
            "name/8", "[::1]x", "-bad.example", "a..b", "http://example.com", "exa mple.com",
        ] {
            #expect(throws: HTTPClientError.self, "\(text)") { try FetchPolicy.Destination(parsing: text) }
        }
    }

    /// `url` through a transport with `policy`: the error code, nil when an answer came.
    static func code(_ url: String, _ policy: FetchPolicy) async -> HTTPClientError.Code? {
        do {
            _ = try await CurlTransport(policy: policy).send(HTTPClientRequest(.get, url))
            return nil
        } catch {
            return error.code
        }
    }

    @Test("every form of a loopback address, and a name resolving to one, is refused before a connection")
    func loopbackForms() async throws {
        let catcher = try RequestCatcher(status: 200)
        defer { catcher.stop() }
        let port = catcher.port
        // The catcher's port is allowed: only the address can stop these.
        let policy = FetchPolicy.publicOnly(ports: [port])
        let forms = [
            "http://127.0.0.1:\(port)/", "http://2130706433:\(port)/", "http://0x7f.1:\(port)/",
            "http://017700000001:\(port)/", "http://127.1:\(port)/", "http://[::ffff:7f00:1]:\(port)/",
            "http://[::ffff:127.0.0.1]:\(port)/", "http://localhost:\(port)/", "http://LocalHost:\(port)/",
            "http://[::1]:\(port)/", "http://[fe80::1%25lo]:\(port)/", "http://0.0.0.0:\(port)/",
            "http://0:\(port)/", "https://127.0.0.1:\(port)/", "http://user@127.0.0.1:\(port)/",
        ]
        for url in forms {
            #expect(await Self.code(url, policy) == .forbiddenDestination, "\(url)")
        }
        #expect(catcher.connections == 0, "\(catcher.requests)")

        // The same forms reach the listener without the policy: the refusals above are the policy's.
        for url in ["http://2130706433:\(port)/", "http://0x7f.1:\(port)/", "http://[::ffff:7f00:1]:\(port)/"] {
            #expect(await Self.code(url, .unrestricted) == nil, "\(url)")
        }
        #expect(catcher.requests.count == 3, "\(catcher.requests)")
    }

    @Test("a destination the operator allowed is fetched: by address and port, by network, by name")
    func allowed() async throws {
        let catcher = try RequestCatcher(status: 200)
        defer { catcher.stop() }
        let port = catcher.port
        let byAddress = FetchPolicy.publicOnly(allowing: [.address(IPAddress("127.0.0.1")!, port: port)])
        #expect(await Self.code("http://127.0.0.1:\(port)/a", byAddress) == nil)
        // The address allowed, whatever the URL calls it.
        #expect(await Self.code("http://2130706433:\(port)/b", byAddress) == nil)
        // Another port of the same address is not.
        #expect(
            await Self.code("http://127.0.0.1:\(port == 65535 ? 1 : port + 1)/", byAddress) == .forbiddenDestination)
        let byNetwork = FetchPolicy.publicOnly(
            ports: [port], allowing: [.network(IPAddress("127.0.0.0")!, prefixLength: 8)])
        #expect(await Self.code("http://127.0.0.1:\(port)/c", byNetwork) == nil)
        let byName = FetchPolicy.publicOnly(allowing: [.host("localhost", port: port)])
        #expect(await Self.code("http://localhost:\(port)/d", byName) == nil)
        #expect(catcher.requests.map(\.target) == ["/a", "/b", "/c", "/d"], "\(catcher.requests)")
    }

    @Test("a port outside the allowed ones is refused, an allowed network's address included")
    func ports() async throws {
        let catcher = try RequestCatcher(status: 200)
        defer { catcher.stop() }
        // Loopback allowed as a network: on the allowed ports (80 and 443) only.
        let policy = FetchPolicy.publicOnly(allowing: [.network(IPAddress("127.0.0.0")!, prefixLength: 8)])
        #expect(await Self.code("http://127.0.0.1:\(catcher.port)/", policy) == .forbiddenDestination)
        #expect(await Self.code("http://[::ffff:127.0.0.1]:\(catcher.port)/", policy) == .forbiddenDestination)
        #expect(catcher.connections == 0)
        #expect(await Self.code("ftp://127.0.0.1:\(catcher.port)/", policy) == .unsupportedScheme)
        #expect(await Self.code("gopher://127.0.0.1:\(catcher.port)/", policy) == .unsupportedScheme)
    }

    @Test("a restricted transfer follows no redirect, even when the request asks")
    func noRedirect() async throws {
        let server = try await LoopbackServer.start("http_fixture_server.py")
        defer { server.stop() }
        let policy = FetchPolicy.publicOnly(allowing: [.address(IPAddress("127.0.0.1")!, port: server.port)])
        var request = HTTPClientRequest(.get, server.base + "/redirect?to=/hello")
        request.maxRedirects = 5
        let restricted = try await CurlTransport(policy: policy).send(request)
        #expect(restricted.status == 302)
        let open = try await CurlTransport().send(request)
        #expect(open.status == 200 && open.body == Array("hello".utf8))
    }
}
