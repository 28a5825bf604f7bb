import PDFCore
import Synchronization

/// The predefined CMaps of ISO 32000-2 §9.7.5.2 (`90ms-RKSJ-H`, `UniGB-UCS2-H`, …) and the
/// `Adobe-<Ordering>-UCS2` CMaps that map the CIDs of the Adobe character collections to Unicode,
/// read at run time from poppler-data (`/usr/share/poppler/cMap/<Registry>-<Ordering>/<Name>`).
///
/// Each CMap is parsed once per process and shared (thread-safe). `Identity-H` and `Identity-V` are
/// built in.
enum PredefinedCMaps {
    /// The folders searched, in order.
    static let roots = ["/usr/share/poppler/cMap", "/usr/local/share/poppler/cMap", "/usr/share/fonts/cmap"]
    /// The collection folders a name may be in.
    private static let collections = [
        "Adobe-Japan1", "Adobe-GB1", "Adobe-CNS1", "Adobe-Korea1", "Adobe-KR", "Adobe-Japan2", "",
    ]
    /// Larger files are not CMaps (the largest poppler-data CMap is under 1 MB).
    static let maxFileSize = 8 << 20

    private static let cache = Mutex<[String: CMap?]>([:])

    /// The predefined CMap `name`, or nil when there is no such file (or the name is not a plain
    /// file name).
    ///
    /// - Parameters:
    ///   - name: the CMap name, without slash.
    ///   - depth: the `usecmap` depth this CMap is loaded at (chains are bounded).
    static func named(_ name: String, depth: Int = 0) -> CMap? {
        if name == "Identity-H" { return identityH }
        if name == "Identity-V" { return identityV }
        guard !name.isEmpty, name.utf8.count < 128, !name.contains("/"), !name.hasPrefix(".") else { return nil }
        if let cached = cache.withLock({ $0[name] }) { return cached }
        var loaded: CMap? = nil
        if let bytes = read(name) {
            var ignored: [String] = []
            loaded = CMapParser.parse(bytes, depth: depth, warnings: &ignored) { used, next in
                named(used, depth: next)
            }
        }
        return cache.withLock { cache in
            if let existing = cache[name] { return existing }
            cache[name] = loaded
            return loaded
        }
    }

    /// The CMap mapping the CIDs of `ordering` (an Adobe character collection) to Unicode.
    static func unicode(forOrdering ordering: String) -> CMap? {
        switch ordering {
        case "Japan1", "GB1", "CNS1", "Korea1", "KR": named("Adobe-\(ordering)-UCS2")
        default: nil
        }
    }

    private static let identityH = CMap.identity(vertical: false)
    private static let identityV = CMap.identity(vertical: true)

    /// The bytes of the CMap file `name`, from the first folder that has it.
    private static func read(_ name: String) -> [UInt8]? {
        for root in roots {
            for collection in collections {
                let path = collection.isEmpty ? "\(root)/\(name)" : "\(root)/\(collection)/\(name)"
                guard let source = try? ByteSource(contentsOfFile: path) else { continue }
                guard source.count <= maxFileSize else { return nil }
                return source.bytes(in: 0..<source.count)
            }
        }
        return nil
    }
}
