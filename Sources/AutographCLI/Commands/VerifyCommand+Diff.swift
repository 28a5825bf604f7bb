import AutographJSON
import PDFCore
import PDFGraphics
import PDFRendering
import PDFSigning

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension VerifyCommand {
    /// ``validationSpec`` with `--diff DIR` and `--diff-dpi D`.
    static let spec: CommandSpec = {
        var spec = validationSpec
        spec.usage += " [--diff DIR [--diff-dpi D]]"
        spec.options += RevisionDiff.options
        spec.details += "\n\n" + RevisionDiff.details
        return spec
    }()

    /// `autograph verify --diff DIR`: for each signature followed by later revisions, the pages that
    /// look different today than in the revision it signs (ISO 32000-2 §7.5.6, §12.8.1), as PNG
    /// images and `DIR/diff.json`.
    struct RevisionDiff {
        static let options: [CommandSpec.Option] = [
            .init(
                name: "diff", valueName: "DIR",
                help: "write, for each signature with later revisions, the pages that changed since (PNG + diff.json)"),
            .init(name: "diff-dpi", valueName: "D", help: "the resolution of --diff's images (72)"),
        ]

        static let details = """
            --diff DIR compares, for each signature followed by later revisions, every page of the
            revision it signs with the page today, both drawn at --diff-dpi (72 by default); a page
            that reads no object written since is the same without being drawn, and a page added or
            removed counts as changed everywhere. For each page that differs it writes
            DIR/sig<k>-page<p>-signed.png, -current.png (only the one that exists for a page added or
            removed) and -diff.png (today's page faded, changed pixels red, changed regions framed in
            blue), k the signature's number above and p the page's, from 1 (file names are for people).
            DIR/diff.json is an array, one object per signature: signature, field, revision (null when
            unknown), pages: [{page (from 0, as every page in JSON: sig1-page2-… is page 1), signedPage,
            currentPage (whether the page exists there), changedShare (of the pixels),
            regions [{x, y, width, height}] in PDF user space of today's page (of the signed one when
            it was removed), images {signed, current, diff} (file names, null when absent)}]; a
            signature of the last revision has no pages. DIR is made when missing; one line a
            signature goes to standard error; the exit code is verify's.
            """

        let directory: String
        let options: RenderOptions

        /// The request of `--diff DIR` and `--diff-dpi D`, with DIR made; nil without `--diff`.
        /// - Throws: `UsageError` when DIR is a file or cannot be made, or D is not 1 … 600.
        init?(_ arguments: Arguments) throws {
            guard let directory = arguments.value("diff") else {
                if arguments.value("diff-dpi") != nil { throw UsageError("--diff-dpi goes with --diff DIR") }
                return nil
            }
            var options = RenderOptions()
            if let text = arguments.value("diff-dpi") {
                guard let dpi = Double(text), dpi >= 1, dpi <= 600 else { throw UsageError("--diff-dpi wants 1 … 600") }
                options.dpi = dpi
            }
            var status = stat()
            if stat(directory, &status) == 0 {
                guard Int(status.st_mode) & 0o170000 == 0o040000 else {
                    throw UsageError("--diff \(directory) is a file; it wants a folder")
                }
            } else {
                try makeDirectory(directory)
            }
            self.directory = directory
            self.options = options
        }

        /// Compares, for each of `statuses` (verify's order), the revision it signs with `document`,
        /// writes the images of the pages that differ and `diff.json`, and says on `console`'s
        /// standard error what it found for each signature.
        func write(_ statuses: [SignatureStatus], of document: PDFDocument, console: Console) async throws {
            let current = DocumentRenderer(document: document)
            let last = document.revisions.count - 1
            var entries: [JSONValue] = []
            for (index, status) in statuses.enumerated() {
                let number = index + 1
                let label = "signature \(number) of \(statuses.count), field '\(status.fieldName)'"
                var pages: [JSONValue] = []
                if let revision = status.revision, revision >= 0, revision < last {
                    let signedDocument: PDFDocument
                    do {
                        signedDocument = try document.document(asOfRevision: revision)
                    } catch {
                        console.error("\(label): revision \(revision) cannot be read: \(error.description)")
                        entries.append(entry(number, status, pages: []))
                        continue
                    }
                    let signed = DocumentRenderer(document: signedDocument)
                    let count = max(signed.document.pageCount, document.pageCount)
                    var unreadable: [Int] = []
                    try await PagesInOrder.forEach(Array(0..<count)) { page in
                        RevisionDiff.compare(signed, current, pageAt: page, options: options)
                    } body: { page, comparison in
                        switch comparison {
                        case .same:
                            break
                        case .unrendered:
                            unreadable.append(page + 1)
                        case .changed(let changed):
                            pages.append(try write(changed, pageAt: page, signature: number))
                        }
                    }
                    console.error(
                        "\(label): signs revision \(revision) (the last is \(last)); \(pages.count) of \(count) page"
                            + (count == 1 ? "" : "s") + " changed since"
                            + (unreadable.isEmpty
                                ? ""
                                : "; pages " + unreadable.map(String.init).joined(separator: ", ")
                                    + " could not be drawn at \(PDFReal.format(options.dpi)) dpi"))
                } else if let revision = status.revision {
                    console.error("\(label): revision \(revision) is the last; nothing to compare")
                } else {
                    console.error("\(label): the revision signed is unknown; nothing to compare")
                }
                entries.append(entry(number, status, pages: pages))
            }
            try writeFile(directory + "/diff.json", JSONValue.array(entries).prettyText + "\n")
        }

        /// A signature's object in `diff.json`.
        func entry(_ number: Int, _ status: SignatureStatus, pages: [JSONValue]) -> JSONValue {
            .object([
                ("signature", .int(number)), ("field", .string(status.fieldName)),
                ("revision", status.revision.map { .int($0) } ?? .null), ("pages", .array(pages)),
            ])
        }

        /// A changed page's comparison and its three images as PNG.
        struct ChangedPage: Sendable {
            var difference: PageDifference
            var signed: [UInt8]?
            var current: [UInt8]?
            var diff: [UInt8]
        }

        /// Compares page `index` of both documents (``PageDifference/compare(_:_:pageAt:options:)``)
        /// and makes the images of a changed page.
        static func compare(
            _ signed: DocumentRenderer, _ current: DocumentRenderer, pageAt index: Int, options: RenderOptions
        ) -> PageDifference.Comparison<ChangedPage> {
            switch PageDifference.compare(signed, current, pageAt: index, options: options) {
            case .same: return .same
            case .unrendered: return .unrendered
            case .changed(let changed):
                return .changed(
                    ChangedPage(
                        difference: changed.difference, signed: changed.original.map { $0.pngData(maxThreads: 1) },
                        current: changed.current.map { $0.pngData(maxThreads: 1) },
                        diff: changed.difference.image(
                            original: changed.original ?? .empty, current: changed.current ?? .empty
                        ).pngData(maxThreads: 1)))
            }
        }

        /// Writes the images of the changed page at `index` (from 0) and returns its object of
        /// `diff.json`; the file names count pages from 1, as people do.
        func write(_ changed: ChangedPage, pageAt index: Int, signature: Int) throws -> JSONValue {
            let stem = "sig\(signature)-page\(index + 1)-"
            func image(_ name: String, _ png: [UInt8]?) throws -> JSONValue {
                guard let png else { return .null }
                try writeFile(directory + "/" + stem + name + ".png", png)
                return .string(stem + name + ".png")
            }
            let images: JSONValue = .object([
                ("signed", try image("signed", changed.signed)), ("current", try image("current", changed.current)),
                ("diff", try image("diff", changed.diff)),
            ])
            let regions = changed.difference.regions.map { region -> JSONValue in
                let box = region.userSpace
                return .object([
                    ("x", .double(Self.rounded(box.x0))), ("y", .double(Self.rounded(box.y0))),
                    ("width", .double(Self.rounded(box.width))), ("height", .double(Self.rounded(box.height))),
                ])
            }
            return .object([
                ("page", .int(index)), ("signedPage", .bool(changed.signed != nil)),
                ("currentPage", .bool(changed.current != nil)),
                ("changedShare", .double((changed.difference.changedShare * 1_000_000).rounded() / 1_000_000)),
                ("regions", .array(regions)), ("images", images),
            ])
        }

        /// Hundredths of a point.
        static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    }
}
