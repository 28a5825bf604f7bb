import PDFCore

extension SignatureValidator {
    /// A well-formed `/ByteRange [a b c d]` (ISO 32000-2 §12.8.1, Table 255): two ranges inside the file.
    struct ByteRange {
        var values: [Int]
        /// `a..<a+b` and `c..<c+d`.
        var ranges: [Range<Int>]
        /// What lies between the ranges, `a+b..<c`; nil when they overlap.
        var gap: Range<Int>?
        /// Where the signed bytes end, `c + d`.
        var end: Int
    }

    /// Reads `/ByteRange`, recording it and what is wrong with it in `status`.
    ///
    /// - Returns: the ranges, or nil when they are missing, not four non-negative integers, or reach
    ///   beyond the end of the file (which happens when a document is opened as of an earlier revision).
    func readByteRange(_ dictionary: PDFDictionary, into status: inout SignatureStatus) -> ByteRange? {
        guard let object = dictionary[.byteRange] else {
            status.problems.append("the signature dictionary has no /ByteRange")
            return nil
        }
        guard let array = document.resolve(object).arrayValue else {
            status.problems.append("/ByteRange is not an array")
            return nil
        }
        var values: [Int] = []
        var malformed = false
        for element in array.prefix(64) {
            if case .integer(let value) = document.resolve(element) {
                values.append(value)
            } else {
                malformed = true
            }
        }
        status.byteRange = values
        if malformed {
            status.problems.append("/ByteRange holds something other than integers")
            return nil
        }
        guard values.count == 4 else {
            status.problems.append("/ByteRange has \(array.count) numbers, not 4")
            return nil
        }
        guard values.allSatisfy({ $0 >= 0 }) else {
            status.problems.append("/ByteRange \(Self.text(values)) has a negative number")
            return nil
        }
        let size = document.fileSize
        let (a, b, c, d) = (values[0], values[1], values[2], values[3])
        guard values.allSatisfy({ $0 <= size }), a + b <= size, c + d <= size else {
            status.problems.append(
                "/ByteRange \(Self.text(values)) reaches beyond the end of the file (\(size) bytes)"
                    + (c + d > size && c <= size ? ": is this an earlier revision of the signed document?" : ""))
            return nil
        }
        return ByteRange(
            values: values, ranges: [a..<(a + b), c..<(c + d)], gap: c >= a + b ? (a + b)..<c : nil, end: c + d)
    }

    /// Whether the gap between the ranges is exactly the `/Contents` hexadecimal string of the
    /// signature dictionary (found by reading the tokens of the object that holds it), so that
    /// nothing but the signature itself is left unsigned.
    func checkGap(_ byteRange: ByteRange, field: SignedField, status: inout SignatureStatus) -> Bool {
        guard let gap = byteRange.gap else {
            status.problems.append("the byte ranges \(Self.text(byteRange.values)) overlap")
            return false
        }
        guard !gap.isEmpty else {
            status.problems.append("the byte ranges leave no room for /Contents")
            return false
        }
        guard let objectRange = field.objectRange else {
            // The dictionary's object has no byte range (it is in an object stream): check the gap itself.
            if gapLooksLikeContents(gap) { return true }
            status.problems.append("the unsigned \(Self.text(gap)) are not a /Contents hexadecimal string")
            return false
        }
        var spans = contentsSpans(in: objectRange)
        if spans.contains(gap) { return true }
        // A later update may have written the dictionary again: look at it as of the revision signed.
        if let reference = field.reference, let signed = revision(endingAt: byteRange.end)?.index,
            signed < document.revisions.count - 1,
            let range = (try? document.document(asOfRevision: signed))?.indirectObject(reference).range,
            range != objectRange
        {
            spans = contentsSpans(in: range)
            if spans.contains(gap) { return true }
        }
        if let span = spans.first {
            status.problems.append(
                "the unsigned \(Self.text(gap)) are not exactly the /Contents string (\(Self.text(span)))")
        } else {
            status.problems.append(
                "the unsigned \(Self.text(gap)) are not a /Contents string of the signature dictionary")
        }
        return false
    }

    /// Where the values of `/Contents` hexadecimal strings are in `range` (the `<` to the `>`), by
    /// reading the tokens of the object, so text inside other strings is never mistaken for them.
    func contentsSpans(in range: Range<Int>) -> [Range<Int>] {
        document.withBytes { buffer -> [Range<Int>] in
            guard range.lowerBound >= 0, range.upperBound <= buffer.count else { return [] }
            var lexer = Lexer(buffer, at: range.lowerBound)
            var spans: [Range<Int>] = []
            var afterContentsKey = false
            var tokens = 0
            while tokens < 100_000 {
                lexer.skipWhitespace()
                let start = lexer.position
                guard start < range.upperBound else { break }
                let token = lexer.next()
                tokens += 1
                switch token {
                case .end:
                    return spans
                case .keyword(let keyword) where keyword == .stream || keyword == .endobj:
                    return spans
                case .string(let string) where afterContentsKey && string.isHex:
                    spans.append(start..<lexer.position)
                default:
                    break
                }
                if case .name(let name) = token {
                    afterContentsKey = name == .contents
                } else {
                    afterContentsKey = false
                }
            }
            return spans
        }
    }

    /// The fallback when the dictionary's place is unknown: the gap is `<hex digits>` right after `/Contents`.
    func gapLooksLikeContents(_ gap: Range<Int>) -> Bool {
        document.withBytes { buffer -> Bool in
            guard gap.count >= 2, gap.upperBound <= buffer.count, buffer[gap.lowerBound] == UInt8(ascii: "<"),
                buffer[gap.upperBound - 1] == UInt8(ascii: ">")
            else { return false }
            for index in (gap.lowerBound + 1)..<(gap.upperBound - 1) {
                let byte = buffer[index]
                guard ASCIIHex.hexValue(byte) != nil || Lexer.isWhitespace(byte) else { return false }
            }
            var before = gap.lowerBound
            while before > 0, Lexer.isWhitespace(buffer[before - 1]) { before -= 1 }
            let key = Array("/Contents".utf8)
            guard before >= key.count else { return false }
            return UnsafeRawBufferPointer(rebasing: buffer[(before - key.count)..<before]).elementsEqual(key)
        }
    }

    /// Sets the coverage, the revision signed and the number of later revisions.
    func assessCoverage(_ byteRange: ByteRange?, gapIsContents: Bool, status: inout SignatureStatus) {
        guard let byteRange else {
            status.coverage = .unclear
            return
        }
        let end = byteRange.end
        let revisions = document.revisions
        if let (index, exact) = revision(endingAt: end) {
            status.revision = index
            status.laterRevisions = revisions.count - 1 - index
            if !exact, end != document.fileSize, byteRange.values[0] == 0, gapIsContents {
                let revisionEnd = revisions[index].endOffset
                status.problems.append(
                    "the signed bytes end at \(end), inside revision \(index) (ending at \(revisionEnd))")
            }
            if byteRange.values[0] != 0 {
                status.problems.append("/ByteRange \(Self.text(byteRange.values)) does not start at the beginning")
                status.coverage = .unclear
            } else if !gapIsContents {
                status.coverage = .unclear
            } else if end == document.fileSize {
                status.coverage = .entireFile
            } else {
                status.coverage = exact ? .entireRevision : .contiguousFromStart
            }
        } else {
            status.coverage = .unclear
        }
    }

    /// The revision whose end `end` is (exactly, or but for white space after its `%%EOF`), or else
    /// the first revision ending after `end`, or the last one.
    func revision(endingAt end: Int) -> (index: Int, exact: Bool)? {
        let revisions = document.revisions
        guard let last = revisions.last else { return nil }
        for revision in revisions where isEndOfRevision(end, revisionEnd: revision.endOffset) {
            return (revision.index, true)
        }
        let containing = revisions.first { $0.endOffset >= end } ?? last
        return (containing.index, false)
    }

    /// Whether `end` and `revisionEnd` differ by white space only, after a `%%EOF` marker (a
    /// signer may sign `%%EOF` without its end of line, or with a trailing space).
    private func isEndOfRevision(_ end: Int, revisionEnd: Int) -> Bool {
        if end == revisionEnd { return true }
        let low = min(end, revisionEnd)
        let high = max(end, revisionEnd)
        guard high - low <= 16 else { return false }
        return document.withBytes { buffer -> Bool in
            guard high <= buffer.count else { return false }
            let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x00]
            guard (low..<high).allSatisfy({ whitespace.contains(buffer[$0]) }) else { return false }
            var markerEnd = low
            while markerEnd > 0, whitespace.contains(buffer[markerEnd - 1]), low - markerEnd < 16 { markerEnd -= 1 }
            guard markerEnd >= 5 else { return false }
            return UnsafeRawBufferPointer(rebasing: buffer[(markerEnd - 5)..<markerEnd]).elementsEqual("%%EOF".utf8)
        }
    }

    /// `[0 644 8836 1416]`.
    static func text(_ values: [Int]) -> String {
        "[" + values.map(String.init).joined(separator: " ") + "]"
    }

    /// `bytes 644 to 8836`.
    static func text(_ range: Range<Int>) -> String {
        "bytes \(range.lowerBound) to \(range.upperBound)"
    }
}
