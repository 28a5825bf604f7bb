import AutographJSON
import PDFCore

#if canImport(Glibc)
    import Glibc
#endif

/// The viewer's files: those embedded in the binary, or those under a directory given for
/// front-end development (`--web-root`), looked up by normalised relative path, never outside it.
struct WebAssets: Sendable {
    let root: String?
    /// The origin allowed to frame the viewer's page (`WebServer.Configuration.embedOrigin`).
    var frameAncestor: String? = nil

    func response(for path: String) throws(WebError) -> HTTPResponse {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty,
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") && !$0.contains("\\") }
            )
        else { throw WebError.notFound("no file \(path)") }
        let asset: WebAsset
        if let root {
            guard let bytes = Self.read(components.joined(separator: "/"), under: root) else {
                throw WebError.notFound("no file \(path) under \(root)")
            }
            asset = WebAsset(contentType: Self.contentType(path), bytes: bytes)
        } else {
            guard let embedded = embeddedWebAssets[path] else { throw WebError.notFound("no file \(path)") }
            asset = embedded
        }
        var headers = [("Cache-Control", root == nil ? "no-cache" : "no-store")]
        if asset.contentType.hasPrefix("text/html") {
            // The page's inline scripts (the boot script starts the first requests before the
            // modules load) run by their hashes; no other inline script can.
            let hashes = root == nil ? Self.embeddedIndexHashes : Self.inlineScriptHashes(asset.bytes)
            headers.append(
                (
                    "Content-Security-Policy",
                    SecurityHeaders.contentSecurityPolicy(scriptHashes: hashes, frameAncestor: frameAncestor)
                ))
        }
        return HTTPResponse(contentType: asset.contentType, bytes: asset.bytes, headers: headers)
    }

    /// The hashes of the embedded index.html's inline scripts, computed once.
    static let embeddedIndexHashes = inlineScriptHashes(embeddedWebAssets["index.html"]?.bytes ?? [])

    /// The base64 SHA-256 of the text of each `<script>` without attributes (CSP `'sha256-…'`).
    /// A script whose hash cannot be computed is left out: the policy then blocks it (fails closed).
    static func inlineScriptHashes(_ html: [UInt8]) -> [String] {
        let open = Array("<script>".utf8)
        let close = Array("</script>".utf8)
        var hashes: [String] = []
        var index = 0
        while let start = find(open, in: html, from: index) {
            let textStart = start + open.count
            guard let end = find(close, in: html, from: textStart) else { break }
            if let hash = try? Digest.sha256.hash(Array(html[textStart..<end])) { hashes.append(Base64.encode(hash)) }
            index = end + close.count
        }
        return hashes
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    static func contentType(_ path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    /// The bytes of the regular file `relative` under `root`, once every symbolic link of the path
    /// is resolved: a link pointing out of the root is no file of the viewer (nil).
    static func read(_ relative: String, under root: String) -> [UInt8]? {
        guard let base = realpath(root, nil) else { return nil }
        defer { free(base) }
        guard let resolved = realpath(root + "/" + relative, nil) else { return nil }
        defer { free(resolved) }
        let rootPath = String(cString: base)
        let path = String(cString: resolved)
        guard path.hasPrefix(rootPath == "/" ? "/" : rootPath + "/") else { return nil }
        return read(path)
    }

    /// A regular file's bytes (nil for anything else or on error).
    static func read(_ path: String) -> [UInt8]? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                return nil
            }
        }
    }
}
