import PDFCore
import PDFGraphics
import PDFRendering

#if canImport(Glibc)
    import Glibc
#endif

/// `autograph render`: pages to PNG.
enum RenderCommand: Command {
    static let spec = CommandSpec(
        name: "render",
        summary: "Render pages to PNG images (cairo and FreeType)",
        usage:
            "autograph render FILE -o OUT.png [--page N | --pages A-B] [--dpi D] [--revision N] [--password P]",
        positionals: 1...1,
        options: [
            .init(name: "output", short: "o", valueName: "OUT.png", help: "the image; several pages write OUT-N.png"),
            .init(name: "page", valueName: "N", help: "the page, from 1 (1)"),
            .init(name: "pages", valueName: "A-B", help: "a range of pages, e.g. 2-5 or 3- (to the end)"),
            .init(name: "dpi", valueName: "D", help: "resolution (72)"),
            .init(
                name: "revision", valueName: "N",
                help: "the document as it was at revision N (0 = the original; the last by default)"),
            .init(name: "print", help: "draw annotations as printed (only those with the Print flag)"),
            .init(name: "color-management", help: "apply embedded ICC profiles (lcms2)"),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
        ],
        details: """
            Problems inside a page's content are warnings (exit 3): the rest of the page is drawn.

            --revision N draws the file as a reader saw it before the later incremental updates were
            appended (ISO 32000-2 §7.5.6): the bytes up to the end of revision N. 'autograph info' lists
            the revisions; a signature signs one of them ('autograph verify').
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let output = arguments.value("output") else { throw UsageError("-o OUT.png is required") }
        let document = try revision(of: openDocument(arguments), arguments)
        let pages = try pageRange(arguments, count: document.pageCount)
        var options = RenderOptions()
        if let dpi = arguments.value("dpi") {
            guard let value = Double(dpi), value > 0, value <= 2400 else { throw UsageError("--dpi wants 1 … 2400") }
            options.dpi = value
        }
        let renderer = DocumentRenderer(
            document: document, annotations: arguments.has("print") ? .print : .display,
            colorManagement: arguments.has("color-management"))
        var warnings = 0
        // Several pages are rendered on every core, one page's PNG deflated on all of them.
        let threads = pages.count == 1 ? 0 : 1
        let renderOptions = options
        try await PagesInOrder.forEach(pages) { page in
            let (image, pageWarnings) = renderer.render(pageAt: page - 1, options: renderOptions)
            return (image.width, image.height, image.pngData(maxThreads: threads), pageWarnings)
        } body: { page, rendered in
            let (width, height, png, pageWarnings) = rendered
            let path = pages.count == 1 ? output : numbered(output, page)
            try writeFile(path, png)
            for warning in pageWarnings { console.error("warning: page \(page): \(warning)") }
            warnings += pageWarnings.count
            if pages.count > 1 { console.error("page \(page): \(width)×\(height) → \(path)") }
        }
        let status = report(document.warnings, console: console)
        return warnings > 0 ? .successWithWarnings : status
    }

    /// The document as of `--revision N` (itself without the option).
    /// - Throws: `UsageError` naming how many revisions there are, unless N is one of them.
    static func revision(of document: PDFDocument, _ arguments: Arguments) throws -> PDFDocument {
        guard let text = arguments.value("revision") else { return document }
        let count = document.revisions.count
        let revisions = "the document has \(count) revision\(count == 1 ? " (0)" : "s (0 to \(count - 1))")"
        guard let revision = Int(text) else { throw UsageError("--revision wants a whole number: " + revisions) }
        guard revision >= 0, revision < count else {
            throw UsageError("revision \(revision) does not exist: " + revisions)
        }
        return try document.document(asOfRevision: revision)
    }

    /// `--page N` or `--pages A-B` (1-based, inclusive).
    /// - Throws: `UsageError` for a malformed value, or a page past the last ("page 5 does not exist:
    ///   the document has 3 pages", ``PageNumbers``).
    static func pageRange(_ arguments: Arguments, count: Int) throws -> [Int] {
        guard count > 0 else { throw UsageError(PageNumbers.pages(0)) }
        if let range = arguments.value("pages") {
            let parts = range.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, let first = Int(parts[0]), first >= 1,
                let last = parts[1].isEmpty ? Optional(count) : Int(parts[1]), last >= first
            else {
                throw UsageError("--pages wants A-B (or A- to the end) with pages from 1 to \(count)")
            }
            try PageNumbers.check(first, count: count)
            try PageNumbers.check(last, count: count)
            return Array(first...last)
        }
        return [try PageNumbers.page(arguments.value("page") ?? "1", count: count)]
    }

    /// `out.png` → `out-3.png`.
    static func numbered(_ path: String, _ page: Int) -> String {
        if let dot = path.lastIndex(of: "."), !path[dot...].contains("/") {
            return String(path[..<dot]) + "-\(page)" + String(path[dot...])
        }
        return path + "-\(page)"
    }
}

/// `autograph thumbnails`: a small JPEG of every page.
enum ThumbnailsCommand: Command {
    static let spec = CommandSpec(
        name: "thumbnails",
        summary: "Write a JPEG thumbnail of every page into a folder",
        usage: "autograph thumbnails FILE -o DIR [--size PX] [--password P]",
        positionals: 1...1,
        options: [
            .init(name: "output", short: "o", valueName: "DIR", help: "the folder (created when missing)"),
            .init(name: "size", valueName: "PX", help: "the longer side in pixels (200)"),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
        ])

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        guard let directory = arguments.value("output") else { throw UsageError("-o DIR is required") }
        let size =
            try arguments.value("size").map { text in
                guard let value = Int(text), value >= 16, value <= 4096 else {
                    throw UsageError("--size wants 16 … 4096")
                }
                return value
            } ?? 200
        let document = try openDocument(arguments)
        try makeDirectory(directory)
        let renderer = DocumentRenderer(document: document)
        let pages = document.pages
        try await PagesInOrder.forEach(Array(1...max(1, pages.count)).filter { $0 <= pages.count }) { number in
            let (width, height) = pages[number - 1].displaySize
            var options = RenderOptions()
            options.dpi = 72 * Double(size) / max(width, height, 1)
            return renderer.render(pageAt: number - 1, options: options).image.jpegData(quality: 80)
        } body: { number, jpeg in
            try writeFile(directory + "/page-\(number).jpg", jpeg)
        }
        console.print("wrote \(document.pageCount) thumbnails to \(directory)")
        return report(document.warnings, console: console)
    }
}
