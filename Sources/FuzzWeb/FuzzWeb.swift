import CShims
import Dispatch
import PDFCore
import PDFSession
import PDFSigning
import PDFWeb
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One fuzzing input for the web server, read as an HTTP request:
///
///     METHOD PATH[?QUERY]\n
///     Name: value\n          (headers, to an empty line)
///     \n
///     body
///
/// The first byte chooses what the request carries besides: bit 0 the bearer token, bit 1
/// `X-Autograph: 1`, bit 2 the server's own `Host`. Every answer must be a status the API
/// documents (2xx, 3xx, 4xx, 503), and the server must answer the next request.
func fuzz(_ data: UnsafeRawBufferPointer) {
    guard let flags = data.first else { return }
    let text = String(decoding: data.dropFirst(), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).makeIterator()
    let requestLine = (lines.next() ?? "").split(separator: " ", maxSplits: 1)
    let method = requestLine.first.map(String.init) ?? "GET"
    let target = requestLine.count > 1 ? String(requestLine[1]) : "/"
    let (path, queryText) = target.split(separator: "?", maxSplits: 1).map(String.init).splitPair
    var headers: [String: String] = [:]
    var bodyLines: [Substring] = []
    var inBody = false
    while let line = lines.next() {
        if inBody {
            bodyLines.append(line)
        } else if line.isEmpty {
            inBody = true
        } else if let colon = line.firstIndex(of: ":") {
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...].drop { $0 == " " })
        }
    }
    var query: [String: String] = [:]
    for pair in (queryText ?? "").split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        query[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    let server = FuzzServer.shared
    if flags & 1 != 0 { headers["authorization"] = "Bearer " + server.web.token }
    if flags & 2 != 0 { headers["x-autograph"] = "1" }
    if flags & 4 != 0 { headers["host"] = "127.0.0.1:\(server.port)" }
    let request = HTTPRequest(
        method: method, path: path, query: query, headers: headers, body: Array(bodyLines.joined(separator: "\n").utf8))
    let status = server.answer(request).status
    precondition((200..<600).contains(status) && status != 500, "\(method) \(target) answered \(status)")
    precondition(
        server.answer(HTTPRequest(method: "GET", path: "/api/state", headers: server.ownHeaders)).status == 200)
}

extension [String] {
    fileprivate var splitPair: (String, String?) { (first ?? "/", count > 1 ? self[1] : nil) }
}

/// The server every input is sent to: a demo form in a store of its own, bound to a free port so
/// that its `Host` is known (nothing is sent over the socket).
final class FuzzServer: Sendable {
    static let shared = FuzzServer()
    let web: WebServer
    let port: Int
    var ownHeaders: [String: String] {
        ["authorization": "Bearer " + web.token, "host": "127.0.0.1:\(port)"]
    }

    init() {
        let directory = "/tmp/autograph-fuzzweb-\(getpid())"
        mkdir(directory, 0o700)
        let (web, port) = FuzzServer.wait {
            let controller = try! SessionController(
                username: "fuzz", storageKey: [UInt8](repeating: 7, count: 64), storePath: directory + "/store.sqlite")
            let backend = WebBackend(controller: controller)
            try! await backend.open(pdf: FuzzServer.form(), documentID: "fuzz")
            let web = WebServer(backend: backend)
            return (web, try! web.start(host: "127.0.0.1", port: 0))
        }
        self.web = web
        self.port = port
    }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        let web = self.web
        return FuzzServer.wait { await web.handle(request) }
    }

    /// Runs `body` on Swift's pool and waits for it on this thread (libFuzzer's callback is synchronous).
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// A one-page form with a text field and a signature field, made by hand.
    static func form() -> [UInt8] {
        var pdf = "%PDF-1.7\n"
        var offsets: [Int] = []
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R] >> >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 400] /Annots [4 0 R 5 0 R] >>",
            "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [20 300 220 330] /P 3 0 R >>",
            "<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /Rect [20 40 220 100] /P 3 0 R >>",
        ]
        for (index, body) in objects.enumerated() {
            offsets.append(pdf.utf8.count)
            pdf += "\(index + 1) 0 obj\n\(body)\nendobj\n"
        }
        let start = pdf.utf8.count
        pdf += "xref\n0 6\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            pdf += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        pdf += "trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n\(start)\n%%EOF\n"
        return Array(pdf.utf8)
    }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        fuzz(UnsafeRawBufferPointer(start: data, count: size))
        return 0
    }

    @_cdecl("FuzzWeb_main")
    public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
        var argc = argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            fuzz(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
    }
#else
    /// Without libFuzzer: replays the inputs named on the command line (to reproduce a crash).
    func replay() {
        for path in CommandLine.arguments.dropFirst() {
            guard let file = fopen(path, "rb") else {
                print("cannot read \(path)")
                continue
            }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                if count <= 0 { break }
                bytes += buffer[0..<count]
            }
            fclose(file)
            bytes.withUnsafeBytes { fuzz($0) }
            print("replayed \(path)")
        }
    }
    let replayed: Void = replay()
#endif
