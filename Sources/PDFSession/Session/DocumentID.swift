/// The ids documents are stored under (the host's, an upload's `X-Document-ID`, a served file's
/// `file-…`): checked before anything is opened or stored under them. An id names a record and a
/// download's file name, so it holds no path separator, no control or invisible formatting
/// character (a right-to-left override would show a file name backwards), and is bounded.
public enum DocumentID {
    /// The most UTF-8 bytes an id may have.
    public static let maximumLength = 200

    /// Why `id` cannot name a document, or nil when it can: empty, longer than ``maximumLength``
    /// bytes, `.` or `..`, a `/` or `\`, a control, format, line or paragraph separator, private-use
    /// or unassigned character, a space other than U+0020, a filler that shows nothing, a mark
    /// before any letter, or space at either end.
    public static func problem(_ id: String) -> String? {
        guard !id.isEmpty else { return "the document id is empty" }
        guard id.utf8.count <= maximumLength else {
            return "the document id has \(id.utf8.count) bytes; at most \(maximumLength) are allowed"
        }
        guard id != ".", id != ".." else { return "the document id cannot be \(id)" }
        if id.contains("/") || id.contains("\\") { return "the document id cannot hold / or \\" }
        // Invisible or look-alike characters: a filler that shows nothing, a space other than the
        // ASCII one, a mark with no letter before it.
        let fillers: Set<UInt32> = [0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800]
        for (offset, scalar) in id.unicodeScalars.enumerated() {
            let category = scalar.properties.generalCategory
            let invisible: Bool
            switch category {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                invisible = true
            case .spaceSeparator: invisible = scalar != " "
            case .nonspacingMark, .enclosingMark, .spacingMark: invisible = offset == 0
            default: invisible = fillers.contains(scalar.value)
            }
            if invisible {
                return "the document id holds the character U+\(String(scalar.value, radix: 16, uppercase: true))"
            }
        }
        if let first = id.unicodeScalars.first, let last = id.unicodeScalars.last,
            first.properties.isWhitespace || last.properties.isWhitespace
        {
            return "the document id cannot begin or end with a space"
        }
        return nil
    }
}
