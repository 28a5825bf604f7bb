import AutographJSON
import PDFCore
import PDFForms
import PDFGraphics

/// `autograph text`: the text of pages, as plain text, laid out, or as words with quads.
enum TextCommand: Command {
    static let spec = CommandSpec(
        name: "text",
        summary: "Extract the text of pages (plain, laid out, or JSON words with positions)",
        usage: "autograph text FILE [--page N] [--layout] [--json] [--strict] [--password P]",
        positionals: 1...1,
        options: [
            .init(name: "page", valueName: "N", help: "only this page, from 1 (all pages)"),
            .init(name: "layout", help: "keep the approximate horizontal positions of words"),
            .init(name: "json", help: "print the words with their quads as JSON"),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
            .init(name: "strict", help: "exit 3 when there were warnings (damage repaired, a page's content problems)"),
        ],
        details: """
            Pages are separated by a form feed, as pdftotext does. JSON: {"pages":[{"page":0,"words":\
            [{"text":"…","quads":[[x1,y1,x2,y2,x3,y3,x4,y4]],"hidden":false}]}]}, page counted from 0 \
            as in every JSON output (--page 1 gives "page":0), quads in PDF user space (lower left, \
            lower right, upper right, upper left along the baseline).
            Ligatures are written as their letters (ﬁ as fi, ﬀ ff, ﬂ fl, ﬃ ffi, ﬄ ffl, ﬅ and ﬆ st), so \
            'autograph text F | grep difficult' finds the word however it was set.
            Problems inside a page's content (a font that cannot be read …) and repaired damage are \
            warnings on standard error: the rest of the text is extracted and the exit code is 0; with \
            --strict it is 3 when there were any.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        if arguments.has("layout") && arguments.has("json") {
            throw UsageError("--layout and --json cannot be combined")
        }
        let document = try openDocument(arguments).withShownFieldAppearances()
        let pages: [Int]
        if arguments.value("page") != nil {
            pages = try RenderCommand.pageRange(arguments, count: document.pageCount)
        } else {
            pages = Array(1...max(document.pageCount, 1)).filter { $0 <= document.pageCount }
        }
        var options = TextOptions()
        options.decomposeLigatures = true
        let extractor = TextExtractor(document: document, options: options)
        var warnings = 0
        var text = ""
        var jsonPages: [JSONValue] = []
        try await PagesInOrder.forEach(pages, work: { extractor.text(pageAt: $0 - 1) }) { page, pageText in
            for warning in pageText.warnings { console.error("warning: page \(page): \(warning)") }
            warnings += pageText.warnings.count
            if arguments.has("json") {
                jsonPages.append(
                    .object(sortingKeys: ["page": .int(page - 1), "words": .array(pageText.words.map(json))]))
            } else {
                let body = arguments.has("layout") ? pageText.layoutText() : pageText.plainText
                text += body + (body.isEmpty ? "" : "\n") + "\u{0C}"
            }
        }
        if arguments.has("json") {
            console.print(JSONValue.object(sortingKeys: ["pages": .array(jsonPages)]).prettyText)
        } else {
            console.print(text)
        }
        let status = report(document.warnings, console: console)
        // Warnings do not make the text incomplete: exit 3 only when asked (--strict).
        guard arguments.has("strict") else { return .success }
        return warnings > 0 ? .successWithWarnings : status
    }

    static func json(_ word: TextWord) -> JSONValue {
        func number(_ value: Double) -> JSONValue { .double((value * 100).rounded() / 100) }
        return .object(sortingKeys: [
            "text": .string(word.text),
            "quads": .array(word.quads.map { quad in .array(quad.points.flatMap { [number($0.x), number($0.y)] }) }),
            "hidden": .bool(word.isHidden),
        ])
    }
}
