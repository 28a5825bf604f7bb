/// Page numbers as the options take them and the messages tell them: from 1, as a reader counts
/// (JSON output alone counts from 0). Every command that takes a page checks it here before a lower
/// layer sees it, so a page that does not exist is a usage error (exit 2) in the options' own terms.
enum PageNumbers {
    /// `text`, the value of `option`, as a page number of a document of `count` pages.
    /// - Throws: `UsageError`: "--page wants a page number from 1" for a value that is no whole number
    ///   from 1, "page 5 does not exist: the document has 3 pages" for one past the last page.
    static func page(_ text: String, option: String = "--page", count: Int) throws -> Int {
        guard let page = Int(text), page >= 1 else { throw UsageError("\(option) wants a page number from 1") }
        try check(page, count: count)
        return page
    }

    /// Checks that page `page` (from 1) is one of the document's `count` pages.
    /// - Throws: `UsageError` "page 5 does not exist: the document has 3 pages" (or "has no pages").
    static func check(_ page: Int, count: Int) throws {
        guard page < 1 || page > count else { return }
        throw UsageError("page \(page) does not exist: " + pages(count))
    }

    /// "the document has 3 pages", "… 1 page", "… no pages".
    static func pages(_ count: Int) -> String {
        count == 0 ? "the document has no pages" : "the document has \(count) page\(count == 1 ? "" : "s")"
    }
}
