/// The check every API that takes a page index (from 0) from its caller makes before using it:
/// the index names a page, or the message says which indices do. Nothing here does arithmetic on
/// the caller's number, so `Int.min` and `Int.max` are refused like any other index.
public enum PageIndexCheck {
    /// Nil when `index` names one of `pageCount` pages, else the message for the caller.
    public static func problem(_ index: Int, pageCount: Int) -> String? {
        guard index < 0 || index >= pageCount else { return nil }
        return "page index \(index) does not exist: " + validIndices(pageCount: pageCount)
    }

    /// Which indices name pages: "the document's pages are 0 to N-1", or that it has none.
    public static func validIndices(pageCount: Int) -> String {
        pageCount > 0 ? "the document's pages are 0 to \(pageCount - 1)" : "the document has no pages"
    }
}
