import AutographJSON
import PDFCore
import PDFForms
import PDFGraphics

/// `autograph search`: the hits of a query with their page, highlight quads and context.
enum SearchCommand: Command {
    static let spec = CommandSpec(
        name: "search",
        summary: "Find text in pages (hits with page, context and highlight quads)",
        usage:
            "autograph search FILE QUERY [--case-sensitive] [--whole-word] [--diacritics] [--page N] [--json] [--password P]",
        positionals: 2...2,
        options: [
            .init(name: "case-sensitive", help: "letters must match in case"),
            .init(name: "whole-word", help: "hits must begin and end at word boundaries"),
            .init(name: "diacritics", help: "diacritics must match (by default 'resume' finds 'Résumé')"),
            .init(name: "page", valueName: "N", help: "only this page, from 1 (all pages)"),
            .init(name: "json", help: "print the hits with their quads as JSON"),
            .init(name: "password", valueName: "P", help: "password of an encrypted document"),
        ],
        details: """
            Case and diacritics are ignored by default; white space in QUERY matches any run of spaces \
            and line breaks, and a hyphen at a line end may be skipped. Hidden text (OCR layers) is searched.
            Text output: one 'page N: CONTEXT' line per hit, then the count. JSON: {"query":"…","results":\
            [{"page":0,"quads":[[x1,y1,x2,y2,x3,y3,x4,y4]],"text":"…","context":"…"}],"count":N}, page \
            counted from 0 as in every JSON output (the text's 'page 1'), quads in PDF user space (lower \
            left, lower right, upper right, upper left along the baseline), one per line.
            Exit codes (as grep): 0 hits found, 1 no hit, 2 usage error or a file that cannot be read.
            Problems inside a page's content are printed as warnings and do not change the exit code.
            """)

    static func run(_ arguments: Arguments, console: Console) async throws -> ExitCode {
        let document: PDFDocument
        do {
            document = try openDocument(arguments).withShownFieldAppearances()
        } catch let error as PDFError {
            // grep's convention: 1 means "nothing found", so an unreadable file is 2.
            throw UsageError(error.description)
        }
        let pages: [Int]
        if arguments.value("page") != nil {
            pages = try RenderCommand.pageRange(arguments, count: document.pageCount).map { $0 - 1 }
        } else {
            pages = Array(0..<document.pageCount)
        }
        let query = arguments.positionals[1]
        var options = SearchOptions()
        options.caseSensitive = arguments.has("case-sensitive")
        options.wholeWord = arguments.has("whole-word")
        options.diacriticSensitive = arguments.has("diacritics")
        let search = TextSearch(document: document)
        var results: [SearchResult] = []
        let extractor = search.extractor
        try await PagesInOrder.forEach(pages, work: { extractor.text(pageAt: $0) }) { page, text in
            for warning in text.warnings { console.error("warning: page \(page + 1): \(warning)") }
            let hits = search.results(in: text, for: query, options: options)
            if !arguments.has("json") {
                for hit in hits { console.print("page \(page + 1): \(Console.inline(hit.context))") }
            }
            results += hits
        }
        for warning in document.warnings { console.error("warning: \(warning.description)") }
        if arguments.has("json") {
            console.print(
                JSONValue.object(sortingKeys: [
                    "query": .string(query), "results": .array(results.map(json)), "count": .int(results.count),
                ]).prettyText)
        } else {
            console.print("\(results.count) \(results.count == 1 ? "hit" : "hits")")
        }
        return results.isEmpty ? .failure : .success
    }

    static func json(_ result: SearchResult) -> JSONValue {
        func number(_ value: Double) -> JSONValue { .double((value * 100).rounded() / 100) }
        return .object(sortingKeys: [
            "page": .int(result.pageIndex),
            "quads": .array(
                result.quads.map { quad in .array(quad.points.flatMap { [number($0.x), number($0.y)] }) }),
            "text": .string(result.text),
            "context": .string(result.context),
        ])
    }
}
