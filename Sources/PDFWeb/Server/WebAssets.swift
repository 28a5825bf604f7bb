#if canImport(Glibc)
    import Glibc
#endif

/// The viewer's files: those embedded in the binary, or those under a directory given for
/// front-end development (`--web-root`), looked up by normalised relative path, never outside it.
struct WebAssets: Sendable {
    let root: String?

    func response(for path: String) throws(WebError) -> HTTPResponse {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty,
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") && !$0.contains("\\") }
            )
        else { throw WebError.notFound("no file \(path)") }
        let asset: WebAsset
        if let root {
            guard let bytes = Self.read(root + "/" + components.joined(separator: "/")) else {
                throw WebError.notFound("no file \(path) under \(root)")
            }
            asset = WebAsset(contentType: Self.contentType(path), bytes: bytes)
        } else {
            guard let embedded = embeddedWebAssets[path] else { throw WebError.notFound("no file \(path)") }
            asset = embedded
        }
        return HTTPResponse(
            contentType: asset.contentType, bytes: asset.bytes,
            headers: [
                ("Cache-Control", root == nil ? "no-cache" : "no-store"), ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"),
            ])
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
