import Foundation
import PDFCore
import PDFRendering
import PDFTestSupport
import Testing

/// Page 1 of the corpus files with fonts, rendered at 72 dpi by ``DocumentRenderer`` and compared
/// with MuPDF and poppler: the share that matches, per kind of font.
@Suite(
    "Text in the corpus against MuPDF and poppler",
    .enabled(if: Requirement.corpusCatalog, "the corpus (or its catalog) is absent"))
struct TextCorpusTests {
    struct Entry: Sendable {
        var file: CorpusFile
        var kinds: Set<String>
    }

    /// The font kinds of a catalog row (its `fonts`, `embedded_fonts` and `classes` columns).
    static func kinds(fonts: String, embedded: String, classes: String) -> Set<String> {
        let fonts = Set(fonts.split(separator: ",").map(String.init))
        let embedded = Set(embedded.split(separator: ",").map(String.init))
        let classes = Set(classes.split(separator: " ").map(String.init))
        var kinds: Set<String> = []
        if embedded.contains("FontFile") { kinds.insert("Type1 embedded") }
        if fonts.contains("Type1") && !embedded.contains("FontFile") && !embedded.contains("Type1C") {
            kinds.insert("Type1 not embedded")
        }
        if embedded.contains("TrueType") { kinds.insert("TrueType embedded") }
        if fonts.contains("TrueType") && !embedded.contains("TrueType") { kinds.insert("TrueType not embedded") }
        if !embedded.isDisjoint(with: ["Type1C", "CIDFontType0C", "OpenType"]) { kinds.insert("CFF/OpenType") }
        if classes.contains("font-cid") { kinds.insert("CID (Type 0)") }
        if classes.contains("font-type3") { kinds.insert("Type3") }
        if classes.contains("cjk") { kinds.insert("CJK") }
        return kinds
    }

    /// Files of the dev catalog that open and have font-cid, font-type3 or cjk classes, or Type1,
    /// TrueType or CFF fonts; empty when the corpus or its catalog is absent.
    static func entries() -> [Entry] {
        guard let root = TestPaths.corpus,
            let catalog = try? String(contentsOfFile: root + "/dev-catalog.tsv", encoding: .utf8)
        else { return [] }
        let lines = catalog.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        guard let header = lines.first, let file = header.firstIndex(of: "file"),
            let open = header.firstIndex(of: "open"), let fonts = header.firstIndex(of: "fonts"),
            let embedded = header.firstIndex(of: "embedded_fonts"), let classes = header.firstIndex(of: "classes")
        else { return [] }
        let files = Dictionary(CorpusFile.all(in: root).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        return lines.dropFirst().compactMap { row -> Entry? in
            guard row.count > max(file, open, fonts, embedded, classes), row[open] == "ok",
                let corpusFile = files[row[file]]
            else { return nil }
            let kinds = Self.kinds(fonts: row[fonts], embedded: row[embedded], classes: row[classes])
            return kinds.isEmpty ? nil : Entry(file: corpusFile, kinds: kinds)
        }
    }

    struct Outcome: Sendable {
        var entry: Entry
        /// The smaller difference (share of pixels) against MuPDF and poppler; nil when neither
        /// renders the page or the sizes differ from both.
        var difference: Double?
        var seconds: Double
    }

    @Test("page 1 of the corpus files with fonts matches MuPDF or poppler at 72 dpi")
    func corpusPages() async throws {
        let entries = Self.entries()
        try #require(!entries.isEmpty, "no corpus file with fonts in the catalog")
        let start = Date()
        // Two workers: the machine is shared.
        var outcomes: [Outcome] = []
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var next = 0
            for _ in 0..<2 where next < entries.count {
                let entry = entries[next]
                group.addTask { try Self.measure(entry) }
                next += 1
            }
            while let outcome = try await group.next() {
                outcomes.append(outcome)
                if next < entries.count {
                    let entry = entries[next]
                    group.addTask { try Self.measure(entry) }
                    next += 1
                }
            }
        }
        let compared = outcomes.filter { $0.difference != nil }
        let matched = compared.filter { $0.difference! <= Self.tolerance }
        var kinds: [String: (matched: Int, total: Int)] = [:]
        for outcome in compared {
            for kind in outcome.entry.kinds {
                kinds[kind, default: (0, 0)].total += 1
                if outcome.difference! <= Self.tolerance { kinds[kind, default: (0, 0)].matched += 1 }
            }
        }
        print(
            "Text corpus: \(matched.count) of \(compared.count) pages match (\(outcomes.count) files) in \(Int(-start.timeIntervalSinceNow)) s"
        )
        for (kind, counts) in kinds.sorted(by: { $0.key < $1.key }) {
            print("  \(kind): \(counts.matched) of \(counts.total)")
        }
        for outcome in compared.sorted(by: { $0.difference! > $1.difference! }).prefix(5) {
            let percent = (outcome.difference! * 1000).rounded() / 10
            print(
                "  worst: \(outcome.entry.file.name) \(percent) % [\(outcome.entry.kinds.sorted().joined(separator: ", "))]"
            )
        }
        for outcome in outcomes.sorted(by: { $0.seconds > $1.seconds }).prefix(3) {
            print("  slowest: \(outcome.entry.file.name) \((outcome.seconds * 10).rounded() / 10) s")
        }
        // Measured when this test was written: 117 of 118 pages of the dev corpus; a regression of
        // more than a few pages fails.
        let share = compared.isEmpty ? 0 : Double(matched.count) / Double(compared.count)
        #expect(share >= Self.expectedShare, "share of matching pages \(share)")
    }

    static let tolerance = 0.02
    static let expectedShare = 0.97

    /// Renders page 1 of `entry` ourselves and with both oracles; the smaller difference.
    static func measure(_ entry: Entry) throws -> Outcome {
        let start = Date()
        let directory = try TestPaths.temporaryDirectory("text-corpus")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var parse = ParseOptions.default
        parse.password = entry.file.password
        let ours: RenderedImage
        do {
            let document = try PDFDocument(contentsOfFile: entry.file.path, options: parse)
            ours = DocumentRenderer(document: document).render(pageAt: 0).image
        } catch {
            ours = RenderedImage(width: 0, height: 0, rgba: [])
        }
        let password = entry.file.password.map { ["-p", $0] } ?? []
        var differences: [Double] = []
        let mupdf = directory + "/mupdf.ppm"
        // `timeout`: MuPDF takes minutes and gigabytes on some files (a Type 3 glyph cycle).
        let result = try Oracle.run(
            "timeout",
            ["-s", "KILL", "8", "mutool", "draw", "-q", "-r", "72", "-c", "rgb", "-o", mupdf] + password + [
                entry.file.path, "1",
            ])
        if result.status == 0, let image = try? PPM.read(mupdf), let difference = difference(ours, image) {
            differences.append(difference)
        }
        if (differences.first ?? 1) > tolerance {
            let popplerPassword = entry.file.password.map { ["-upw", $0] } ?? []
            let base = directory + "/poppler"
            let result = try Oracle.run(
                "timeout",
                ["-s", "KILL", "8", "pdftoppm", "-r", "72", "-f", "1", "-l", "1", "-singlefile"] + popplerPassword + [
                    entry.file.path, base,
                ])
            if result.status == 0, let image = try? PPM.read(base + ".ppm"), let difference = difference(ours, image) {
                differences.append(difference)
            }
        }
        return Outcome(entry: entry, difference: differences.min(), seconds: -start.timeIntervalSinceNow)
    }

    /// The fidelity measure (``Fidelity``) with a fast box blur; nil when the sizes differ (a page
    /// we could not render counts as entirely different).
    static func difference(_ ours: RenderedImage, _ theirs: OracleImage) -> Double? {
        guard theirs.width > 0, theirs.height > 0 else { return nil }
        guard ours.width == theirs.width, ours.height == theirs.height else { return 1 }
        let a = FastBlur.blurred(Fidelity.rgb(ours), width: ours.width, height: ours.height)
        let b = FastBlur.blurred(theirs.pixels, width: theirs.width, height: theirs.height)
        var differing = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for pixel in 0..<(ours.width * ours.height) {
                    let base = pixel * 3
                    if abs(a[base] - b[base]) > 64 || abs(a[base + 1] - b[base + 1]) > 64
                        || abs(a[base + 2] - b[base + 2]) > 64
                    {
                        differing += 1
                    }
                }
            }
        }
        return Double(differing) / Double(ours.width * ours.height)
    }
}

/// ``Fidelity/blurred(_:width:height:)`` (a 3×3 box mean, shrunk at the edges, integer division)
/// computed with running sums over unsafe buffers, fast enough for a debug build.
enum FastBlur {
    static func blurred(_ pixels: [UInt8], width: Int, height: Int) -> [Int] {
        var rows = [Int](repeating: 0, count: pixels.count)  // horizontal sums of 3
        var counts = [Int](repeating: 0, count: width)
        for x in 0..<width { counts[x] = (x > 0 ? 1 : 0) + 1 + (x < width - 1 ? 1 : 0) }
        pixels.withUnsafeBufferPointer { source in
            rows.withUnsafeMutableBufferPointer { rows in
                for y in 0..<height {
                    for x in 0..<width {
                        for channel in 0..<3 {
                            let index = (y * width + x) * 3 + channel
                            var sum = Int(source[index])
                            if x > 0 { sum += Int(source[index - 3]) }
                            if x < width - 1 { sum += Int(source[index + 3]) }
                            rows[index] = sum
                        }
                    }
                }
            }
        }
        var result = [Int](repeating: 0, count: pixels.count)
        rows.withUnsafeBufferPointer { rows in
            result.withUnsafeMutableBufferPointer { result in
                let stride = width * 3
                for y in 0..<height {
                    let rowsAbove = y > 0 ? 1 : 0
                    let rowsBelow = y < height - 1 ? 1 : 0
                    for x in 0..<width {
                        let count = counts[x] * (1 + rowsAbove + rowsBelow)
                        for channel in 0..<3 {
                            let index = (y * width + x) * 3 + channel
                            var sum = rows[index]
                            if rowsAbove == 1 { sum += rows[index - stride] }
                            if rowsBelow == 1 { sum += rows[index + stride] }
                            result[index] = sum / count
                        }
                    }
                }
            }
        }
        return result
    }
}
