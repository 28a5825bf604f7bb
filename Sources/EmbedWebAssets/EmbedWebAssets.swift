// Writes the Swift source that embeds the web viewer's files (Web/) in PDFWeb, run at build time
// by the EmbedWebAssetsPlugin: `EmbedWebAssets WEB-DIRECTORY OUTPUT.swift`.
//
// Text files become raw multi-line string literals (with enough #s that no delimiter or escape
// can occur inside), other files byte arrays; keys are paths relative to Web/.
import Foundation

let contentTypes: [String: String] = [
    "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
    "mjs": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
    "json": "application/json", "png": "image/png", "jpg": "image/jpeg", "ico": "image/x-icon",
    "txt": "text/plain; charset=utf-8", "webmanifest": "application/manifest+json",
]

/// A Swift literal whose value is exactly `text`.
func swiftString(_ text: String) -> String {
    var hashes = 1
    while text.contains("\"" + String(repeating: "#", count: hashes))
        || text.contains("\\" + String(repeating: "#", count: hashes))
    {
        hashes += 1
    }
    let fence = String(repeating: "#", count: hashes)
    // A multi-line literal drops the newline before its closing delimiter: add one.
    return fence + "\"\"\"\n" + text + "\n\"\"\"" + fence
}

/// Text that a raw multi-line literal keeps byte for byte (UTF-8, LF and tab the only controls).
func literalText(_ data: Data) -> String? {
    guard let text = String(data: data, encoding: .utf8) else { return nil }
    let unsafe = text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }
    return unsafe ? nil : text
}

/// What the tool does, from its arguments.
enum EmbedWebAssets {
    static func run() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            FileHandle.standardError.write(Data("usage: EmbedWebAssets WEB-DIRECTORY OUTPUT.swift\n".utf8))
            exit(2)
        }
        let web = URL(fileURLWithPath: arguments[1]).standardizedFileURL
        var paths: [String] = []
        if let walker = FileManager.default.enumerator(at: web, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker {
                let relative = String(url.standardizedFileURL.path.dropFirst(web.path.count + 1))
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                    !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") })
                else { continue }
                paths.append(relative)
            }
        }
        var output = """
            // Generated at build time from Web/ by the EmbedWebAssets plugin — do not edit.

            /// The web viewer's files by path ("index.html", "app/viewer.js" …).
            let embeddedWebAssets: [String: WebAsset] = [

            """
        for path in paths.sorted() {
            let data = try Data(contentsOf: web.appendingPathComponent(path))
            let type = contentTypes[(path as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
            let bytes: String
            if let text = literalText(data) {
                bytes = "Array(\n" + swiftString(text) + ".utf8)"
            } else {
                bytes = "[" + data.map { String($0) }.joined(separator: ", ") + "]"
            }
            output += "    \"\(path)\": WebAsset(\n        contentType: \"\(type)\",\n        bytes: \(bytes)),\n"
        }
        output += "]\n"
        let target = URL(fileURLWithPath: arguments[2])
        if (try? String(contentsOf: target, encoding: .utf8)) != output {
            try output.write(to: target, atomically: true, encoding: .utf8)
        }
    }
}

#if FUZZING
    // The libFuzzer builds of `scripts/fuzz` link every executable with libFuzzer's own `main`, this
    // build tool included: it then does its job in libFuzzer's first callback and exits there.
    @_cdecl("LLVMFuzzerInitialize")
    public func fuzzerInitialize(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
    ) -> Int32 {
        do {
            try EmbedWebAssets.run()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("EmbedWebAssets: \(error)\n".utf8))
            exit(1)
        }
    }

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 { 0 }
#else
    /// The entry point (a type, not top-level code, so that the file also builds parsed as a library).
    @main
    enum EmbedWebAssetsTool {
        static func main() throws { try EmbedWebAssets.run() }
    }
#endif
