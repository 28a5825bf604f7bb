import AutographJSON
import Foundation
import PDFTestSupport
import Testing

@testable import PDFWeb

/// The server's connections under attack, over raw sockets: nobody without a credential can take
/// the connections a person needs (idle sockets, heads trickled a byte a second, refused requests
/// kept open, event streams), and the HTTP layer's own answers and refusals are this server's.
///
/// The attackers run in `Tests/Scripts/connection_attack.py`, from 127.0.0.2 (Linux routes all of
/// 127.0.0.0/8 to the loopback interface) unless a test says otherwise, beside a person's client on
/// 127.0.0.1 that asks `GET /api/state` four times a second on a new connection each time.
@Suite(.serialized) struct WebConnectionTests {
    /// What `connection_attack.py` measured.
    struct AttackRun: CustomStringConvertible {
        let json: JSONValue
        var probes: Int { json["probes"]?.intValue ?? 0 }
        var failures: Int { json["failures"]?.intValue ?? -1 }
        var failuresInARow: Int { json["failuresInARow"]?.intValue ?? -1 }
        var longest: Double { json["max"]?.doubleValue ?? .infinity }
        var description: String { json.serialized() }
    }

    static func attack(_ server: TestServer, _ mode: String, source: String = "127.0.0.2", seconds: Int = 15)
        async throws -> AttackRun
    {
        let result = try await TestServer.runOffPool(
            "python3",
            [
                TestPaths.repository + "/Tests/Scripts/connection_attack.py", String(server.port), mode,
                "--source", source, "--seconds", String(seconds), "--token", server.token,
            ], timeout: Double(seconds) + 60)
        let line = result.output.split(separator: "\n").last.map(String.init) ?? ""
        return AttackRun(json: (try? JSONValue.parse(Array(line.utf8))) ?? .null)
    }

    @Test(
        "300 attacking connections from another address never keep a person's client out",
        arguments: ["idle", "slowloris", "events-anon", "events-token"])
    func attackFromAnotherAddress(mode: String) async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let run = try await Self.attack(server, mode)
        print("attack \(mode) from 127.0.0.2: \(run)")
        #expect(run.probes >= 40)
        #expect(run.failures == 0, "\(run)")
        #expect(run.longest < 1.0, "\(run)")
    }

    /// The per-address limit cannot tell the person from an attacker on the same address (a NAT, a
    /// proxy): what keeps the person in is that the connection that waited longest is dropped first
    /// (read once more before, so a head that came is handed on) and that none waits more than 5 s.
    /// The person may lose a request now and then to the flood, never the server.
    @Test("an attacker on the person's own address: a request may be lost, the person is never locked out")
    func attackFromTheSameAddress() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let run = try await Self.attack(server, "slowloris", source: "127.0.0.1")
        print("attack slowloris from 127.0.0.1: \(run)")
        #expect(run.probes >= 40)
        #expect(run.failures <= run.probes / 10, "\(run)")
        #expect(run.failuresInARow <= 2, "\(run)")
        #expect(run.longest < 1.0, "\(run)")
    }

    @Test("a connection whose request head has not arrived 5 s after it opened is closed")
    func headerDeadline() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        // Nothing sent; and a head trickled a byte every half second.
        let idle = try await Raw.exchange(server.port, [], wait: 9)
        #expect(idle.closed)
        #expect(idle.seconds < 7)
        #expect(idle.bytes.isEmpty)
        let trickled = try await Raw.exchange(
            server.port, Array("GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaa".utf8),
            wait: 9, byteEvery: 0.5)
        #expect(trickled.closed)
        #expect(trickled.seconds < 7)
        #expect(trickled.status == 408)
        #expect(trickled.headers["x-content-type-options"] == "nosniff")
    }

    @Test("at most four event streams a credential: a fifth closes the oldest")
    func eventStreamsPerCredential() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let result = try await TestServer.runOffPool(
            "python3",
            [
                "-c",
                """
                import socket,sys,time
                port,token=int(sys.argv[1]),sys.argv[2]
                streams=[]
                for i in range(6):
                    s=socket.create_connection(('127.0.0.1',port));s.settimeout(3)
                    s.sendall(('GET /api/events HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\nAuthorization: Bearer %s\\r\\n\\r\\n'%(port,token)).encode())
                    s.recv(65536);streams.append(s);time.sleep(0.2)
                time.sleep(0.5)
                closed=[]
                for s in streams:
                    s.settimeout(0.5)
                    try:
                        ended=False
                        while True:
                            d=s.recv(65536)
                            if not d: ended=True;break
                    except socket.timeout: pass
                    except OSError: ended=True
                    closed.append('closed' if ended else 'open')
                print(' '.join(closed))
                """, String(server.port), server.token,
            ])
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "closed closed open open open open")
    }

    @Test("a request whose body stops coming is closed after the idle timeout; an event stream outlives it")
    func idleTimeout() async throws {
        let server = try await TestServer(keepAlive: 2) { $0.idleTimeout = .seconds(1) }
        defer { Task { await server.stop() } }
        // 10 of 100 bytes, then nothing: closed a second later (the timer counts whole seconds).
        var stalled = Self.head(
            server.port, ["PUT /api/fields/name HTTP/1.1", "X-Autograph: 1", "Content-Length: 100"],
            token: server.token)
        stalled += Array("{\"value\": ".utf8)
        let reply = try await Raw.exchange(server.port, stalled, wait: 8)
        #expect(reply.closed)
        #expect(reply.seconds < 4, "\(reply.seconds)")
        // Quiet between keep-alive comments every 2 s, an event stream stays open (twice the interval).
        let events = try await Raw.exchange(
            server.port, Self.head(server.port, ["GET /api/events HTTP/1.1"], token: server.token), wait: 7)
        #expect(!events.closed, "\(events.text)")
        #expect(events.text.components(separatedBy: ": keep-alive").count >= 3, "\(events.text)")
    }

    @Test("40 clients of one address asking at once on new connections are all answered, none refused")
    func burstBelowTheLimits() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        // Each request a new connection, as fast as they come: a place among the requests under way
        // is free as soon as a request is over, not once libmicrohttpd has cleaned its thread up.
        let result = try await TestServer.runOffPool(
            "python3",
            [
                "-c",
                """
                import socket,sys,threading,time
                port,token=int(sys.argv[1]),sys.argv[2]
                request=('GET /api/state HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\nAuthorization: Bearer %s\\r\\n\\r\\n'%(port,token)).encode()
                counts={}
                lock=threading.Lock()
                def client():
                    end=time.monotonic()+5
                    while time.monotonic()<end:
                        try:
                            s=socket.create_connection(('127.0.0.1',port),timeout=10);s.sendall(request);data=b''
                            while True:
                                d=s.recv(65536)
                                if not d: break
                                data+=d
                            s.close();key=data[:12].decode('latin-1') or 'closed without an answer'
                        except OSError as e: key=type(e).__name__
                        with lock: counts[key]=counts.get(key,0)+1
                threads=[threading.Thread(target=client) for _ in range(40)]
                [t.start() for t in threads];[t.join() for t in threads]
                print(' '.join('%s=%d'%(k.replace(' ','_'),v) for k,v in sorted(counts.items())))
                """, String(server.port), server.token,
            ])
        let counts = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        print("40 clients of 127.0.0.1 for 5 s: \(counts)")
        #expect(counts.hasPrefix("HTTP/1.1_200="), "\(counts)")
        #expect(!counts.contains(" "), "\(counts)")
    }

    // MARK: - Refusals

    static func head(_ port: Int, _ lines: [String], token: String?) -> [UInt8] {
        var text = lines[0] + "\r\nHost: 127.0.0.1:\(port)\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        for line in lines.dropFirst() { text += line + "\r\n" }
        return Array((text + "\r\n").utf8)
    }

    @Test(
        "every refused request gets this server's answer, with its security headers, and the connection closed",
        arguments: [
            (
                400, ["POST /api/fields/name HTTP/1.1", "X-Autograph: 1", "Content-Length: 2", "Content-Length: 3"],
                true
            ),
            (403, ["GET /api/events HTTP/1.1"], false),
            (404, ["GET /api/nothing-here HTTP/1.1"], true),
            (405, ["DELETE /api/state HTTP/1.1", "X-Autograph: 1"], true),
            (413, ["POST /api/documents HTTP/1.1", "X-Autograph: 1", "Content-Length: 999999999999"], true),
            (414, ["GET /api/state?q=" + String(repeating: "a", count: 40_000) + " HTTP/1.1"], true),
            (431, ["GET /api/state HTTP/1.1", "X-Large: " + String(repeating: "a", count: 40_000)], true),
            (503, ["POST /api/documents HTTP/1.1", "X-Autograph: 1", "Content-Length: 100000"], true),
        ] as [(Int, [String], Bool)])
    func refusals(status: Int, lines: [String], credential: Bool) async throws {
        let server = try await TestServer { $0.concurrentUploads = 0 }
        defer { Task { await server.stop() } }
        let reply = try await Raw.exchange(
            server.port, Self.head(server.port, lines, token: credential ? server.token : nil), wait: 4)
        #expect(reply.status == status, "\(reply.text.prefix(300))")
        #expect(reply.headers["x-content-type-options"] == "nosniff", "\(reply.text.prefix(600))")
        #expect(reply.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(reply.headers["x-frame-options"] == "DENY")
        #expect(reply.headers["connection"]?.lowercased() == "close")
        #expect(reply.json["error"]?["code"]?.stringValue != nil, "\(reply.text.prefix(300))")
        #expect(reply.closed)
    }

    @Test("a chunked body libmicrohttpd cannot read ends the connection without its own page")
    func malformedChunks() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        var bytes = Self.head(
            server.port, ["POST /api/documents HTTP/1.1", "X-Autograph: 1", "Transfer-Encoding: chunked"],
            token: server.token)
        bytes += Array("zz\r\nhello\r\n0\r\n\r\n".utf8)
        let reply = try await Raw.exchange(server.port, bytes, wait: 4)
        #expect(reply.closed)
        // Nothing, or an answer of this server's (its headers), never libmicrohttpd's HTML page.
        #expect(reply.bytes.isEmpty || reply.headers["x-content-type-options"] == "nosniff", "\(reply.text)")
        #expect(!reply.text.contains("<html>"))
    }

    @Test(
        "a malformed header line is refused with 400, not dropped or folded",
        arguments: [
            ("obs-fold", ["GET /api/state HTTP/1.1", "X-Autograph: 1", " continued"]),
            ("space before the colon", ["GET /api/state HTTP/1.1", "X-Autograph : 1"]),
            ("tab before the colon", ["GET /api/state HTTP/1.1", "X-Autograph\t: 1"]),
            ("no colon", ["GET /api/state HTTP/1.1", "X-Autograph 1"]),
            ("a name outside the token set", ["GET /api/state HTTP/1.1", "X-Auto(graph): 1"]),
            ("a control character in a value", ["GET /api/state HTTP/1.1", "X-Autograph: 1\u{1}2"]),
        ])
    func malformedHeaderLines(name: String, lines: [String]) async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let reply = try await Raw.exchange(server.port, Self.head(server.port, lines, token: server.token), wait: 4)
        #expect(reply.status == 400, "\(name): \(reply.text.prefix(300))")
        #expect(reply.json["error"]?["code"]?.stringValue == "badRequest", "\(name)")
        #expect(reply.headers["x-content-type-options"] == "nosniff", "\(name)")
        #expect(reply.closed, "\(name)")
    }

    @Test("a request head at the limits (15 KB, 180 fields, cookies and query parameters) is answered")
    func headAtTheLimits() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let query = (0..<40).map { "p\($0)=\($0)" }.joined(separator: "&")
        let cookies = "Cookie: " + (0..<60).map { "c\($0)=\($0)" }.joined(separator: "; ")
        var lines = ["GET /api/state?\(query) HTTP/1.1", cookies]
        lines += (0..<76).map { "X-Field-\($0): " + String(repeating: "v", count: 175) }
        let bytes = Self.head(server.port, lines, token: server.token)
        #expect(bytes.count > 14_000 && bytes.count < 16_000)
        let reply = try await Raw.exchange(server.port, bytes, wait: 4)
        #expect(reply.status == 200, "\(reply.text.prefix(300))")
    }

    // MARK: - Sign-in links

    @Test("HEAD of a sign-in link (a mail scanner) leaves it unspent and sets no cookie; GET then spends it")
    func headLeavesTheLinkUnspent() async throws {
        let server = try await TestServer()
        defer { Task { await server.stop() } }
        let code = String(server.server.signInLink().dropFirst(8))
        let head = try await Raw.exchange(
            server.port, Self.head(server.port, ["HEAD /?login=\(code) HTTP/1.1"], token: nil), wait: 3)
        #expect(head.status == 303)
        #expect(head.headers["set-cookie"] == nil)
        let get = try await Raw.exchange(
            server.port, Self.head(server.port, ["GET /?login=\(code) HTTP/1.1"], token: nil), wait: 3)
        #expect(get.status == 303)
        #expect(get.headers["set-cookie"]?.hasPrefix(server.server.policy.cookieName + "=") == true)
        let again = try await Raw.exchange(
            server.port, Self.head(server.port, ["HEAD /?login=\(code) HTTP/1.1"], token: nil), wait: 3)
        #expect(again.status == 403)
    }
}

/// One exchange over a raw TCP connection (Python's sockets, off Swift's pool).
enum Raw {
    struct Reply {
        /// Every byte received until the server closed the connection or `wait` passed.
        var bytes: [UInt8]
        /// The server closed the connection (or reset it) before `wait` passed.
        var closed: Bool
        /// From the connection to the close (or to `wait`).
        var seconds: Double
        var text: String { String(decoding: bytes, as: UTF8.self) }
        var status: Int? {
            let line = text.prefix { $0 != "\r" }.split(separator: " ")
            return line.count >= 2 ? Int(line[1]) : nil
        }
        var headers: [String: String] {
            var result: [String: String] = [:]
            let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
            for line in head.components(separatedBy: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                result[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            return result
        }
        var json: JSONValue {
            guard let range = text.range(of: "\r\n\r\n") else { return .null }
            return (try? JSONValue.parse(Array(text[range.upperBound...].utf8))) ?? .null
        }
    }

    /// Sends `bytes` (all at once, or one every `byteEvery` seconds) and reads until the server
    /// closes the connection or `wait` seconds have passed since it opened.
    static func exchange(_ port: Int, _ bytes: [UInt8], wait: Double, byteEvery: Double = 0) async throws -> Reply {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let result = try await TestServer.runOffPool(
            "python3",
            [
                "-c",
                """
                import json,socket,sys,time
                port,data,wait,every=int(sys.argv[1]),bytes.fromhex(sys.argv[2]),float(sys.argv[3]),float(sys.argv[4])
                start=time.monotonic()
                s=socket.create_connection(('127.0.0.1',port))
                got=b'';closed=False
                try:
                    if every>0:
                        s.settimeout(0.01)
                        for b in data:
                            if time.monotonic()-start>=wait: break
                            s.send(bytes([b]))
                            until=time.monotonic()+every
                            while time.monotonic()<until:
                                try:
                                    d=s.recv(65536)
                                    if not d: raise ConnectionResetError()
                                    got+=d
                                except socket.timeout: pass
                    else:
                        s.sendall(data)
                    while True:
                        left=wait-(time.monotonic()-start)
                        if left<=0: break
                        s.settimeout(left)
                        try: d=s.recv(65536)
                        except socket.timeout: break
                        if not d: closed=True;break
                        got+=d
                except OSError:
                    closed=True
                print(json.dumps({'hex':got.hex(),'closed':closed,'seconds':time.monotonic()-start}))
                """, String(port), hex, String(wait), String(byteEvery),
            ], timeout: wait + 30)
        let json = (try? JSONValue.parse(Array(result.output.utf8))) ?? .null
        let received = json["hex"]?.stringValue ?? ""
        var decoded: [UInt8] = []
        var index = received.startIndex
        while index < received.endIndex {
            let next = received.index(index, offsetBy: 2)
            decoded.append(UInt8(received[index..<next], radix: 16) ?? 0)
            index = next
        }
        return Reply(
            bytes: decoded, closed: json["closed"]?.boolValue ?? false,
            seconds: json["seconds"]?.doubleValue ?? .infinity)
    }
}

/// The gate's check of a request head, on bytes (`RequestHead`, what every connection's first bytes go through).
@Suite struct RequestHeadTests {
    static let limits = RequestHead.Limits(headBytes: 16 * 1024, targetBytes: 8 * 1024, fields: 200)

    static func verdict(_ text: String, limits: RequestHead.Limits = limits) -> String {
        Array(text.utf8).withUnsafeBytes { bytes in
            switch RequestHead.check(bytes, limits: limits) {
            case .incomplete: "incomplete"
            case .complete(let length): "complete \(length)"
            case .refused(let error): "\(error.status)"
            }
        }
    }

    static let valid =
        "GET /api/state?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8410\r\nCookie: a=1; b=2\r\nX-Empty:\r\n"
        + "Content-Length: 0\r\n\r\n"

    @Test("each prefix of a good head is incomplete, the whole head complete (a body after it is not read)")
    func prefixes() {
        let bytes = Array(Self.valid.utf8)
        for end in 0..<bytes.count {
            #expect(Self.verdict(String(decoding: bytes[..<end], as: UTF8.self)) == "incomplete", "\(end)")
        }
        #expect(Self.verdict(Self.valid) == "complete \(bytes.count)")
        #expect(Self.verdict(Self.valid + "{\"a\": 1}") == "complete \(bytes.count)")
        // Line ends of LF alone, and empty lines before the request line, as libmicrohttpd reads them.
        #expect(Self.verdict("\r\n\nGET / HTTP/1.0\nHost: a\n\n") == "complete 27")
    }

    @Test(
        "a malformed head is refused with its status, and so is every longer prefix of it",
        arguments: [
            ("GET /x HTTP/1.1\r\nX-A: 1\r\n continued\r\n\r\n", "400"),
            ("GET /x HTTP/1.1\r\nX-A : 1\r\n\r\n", "400"),
            ("GET /x HTTP/1.1\r\nX-A\t: 1\r\n\r\n", "400"),
            ("GET /x HTTP/1.1\r\nX-A 1\r\n\r\n", "400"),
            ("GET /x HTTP/1.1\r\nX-(A): 1\r\n\r\n", "400"),
            ("GET /x HTTP/1.1\r\nX-A: 1\u{0}2\r\n\r\n", "400"),
            ("GET /x HTTP/1.1\r\nX-A: 1\r2\r\n\r\n", "400"),
            ("GET /x y HTTP/1.1\r\n\r\n", "400"),
            ("GET /x HTTP/1.1 \r\n\r\n", "400"),
            ("G(T /x HTTP/1.1\r\n\r\n", "400"),
            ("GET /x HTTP/2.0\r\n\r\n", "505"),
            ("GET /x HTTPS/1.1\r\n\r\n", "400"),
            ("POST /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", "400"),
            ("POST /x HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", "400"),
            ("POST /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "400"),
            ("POST /x HTTP/1.1\r\nContent-Length: 1234567890123456\r\n\r\n", "413"),
            ("POST /x HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "501"),
            ("POST /x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", "400"),
        ])
    func refused(head: String, status: String) {
        #expect(Self.verdict(head) == status, "\(head.debugDescription)")
        // A prefix is incomplete or already refused the same way, never accepted.
        let bytes = Array(head.utf8)
        for end in 0..<bytes.count {
            let verdict = Self.verdict(String(decoding: bytes[..<end], as: UTF8.self))
            #expect(verdict == "incomplete" || verdict == status, "\(end): \(verdict)")
        }
    }

    @Test("20,000 damaged heads: never a crash, and a complete head is complete alone, at the same length")
    func damagedHeads() {
        var generator = SplitMix(seed: 7)
        let pieces: [[UInt8]] = [[0x0D], [0x0A], [0x20], [0x09], [0x3A], [0x00], [0x7F], [0xFF], [0x0D, 0x0A]]
        let base = Array(Self.valid.utf8)
        for _ in 0..<20_000 {
            var bytes = base
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let at = Int(generator.next() % UInt64(bytes.count + 1))
                switch generator.next() % 3 {
                case 0: bytes.insert(contentsOf: pieces[Int(generator.next() % UInt64(pieces.count))], at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: generator.next()) }
                }
            }
            let verdict = bytes.withUnsafeBytes { RequestHead.check($0, limits: Self.limits) }
            if case .complete(let length) = verdict {
                #expect(length <= bytes.count)
                let alone = bytes[..<length].withUnsafeBytes { RequestHead.check($0, limits: Self.limits) }
                guard case .complete(let again) = alone else {
                    Issue.record("\(bytes) complete at \(length), not alone")
                    continue
                }
                #expect(again == length)
            }
        }
    }

    /// A small deterministic generator (SplitMix64).
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("the limits: a target past its bytes is 414 before its line ends, a head past its bytes or fields 431")
    func limitsAreMet() {
        let small = RequestHead.Limits(headBytes: 2048, targetBytes: 512, fields: 10)
        #expect(Self.verdict("GET /" + String(repeating: "a", count: 600), limits: small) == "414")
        #expect(
            Self.verdict("GET /" + String(repeating: "a", count: 500) + " HTTP/1.1\r\n\r\n", limits: small).hasPrefix(
                "complete"))
        #expect(
            Self.verdict("GET /" + String(repeating: "a", count: 520) + " HTTP/1.1\r\n\r\n", limits: small) == "414")
        let long = "GET / HTTP/1.1\r\nX-A: " + String(repeating: "a", count: 2100)
        #expect(Self.verdict(long, limits: small) == "431")
        let fields =
            "GET /?a=1&b=2 HTTP/1.1\r\nCookie: " + (0..<8).map { "c\($0)=1" }.joined(separator: "; ") + "\r\n\r\n"
        #expect(Self.verdict(fields, limits: small) == "431")
        #expect(Self.verdict(String(repeating: "\r\n", count: 1100), limits: small) == "431")
    }
}
