import CShims

/// One `n g obj … endobj` read from a file: the object, where it is, and its stream data range.
package struct ParsedIndirectObject {
    package var reference: PDFReference
    /// The object; for a stream, its dictionary (the data is described by `streamData`).
    package var object: PDFObject
    /// From the object number to just after `endobj` (or to where the object ends when it is missing).
    package var range: Range<Int>
    /// The encoded data of a stream, when the object is one.
    package var streamData: Range<Int>?
    package var warnings: [PDFWarning]
}

package enum IndirectObjectParser {
    /// Reads the header `n g obj` at `offset` (after optional white space).
    package static func readHeader(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (PDFReference, Int)? {
        var lexer = Lexer(bytes, at: offset)
        lexer.skipWhitespace()
        guard let number = lexer.readUnsigned(maxDigits: 10) else { return nil }
        guard lexer.position < bytes.count, Lexer.isWhitespace(bytes[lexer.position]) else { return nil }
        lexer.skipWhitespace()
        guard let generation = lexer.readUnsigned(maxDigits: 10) else { return nil }
        lexer.skipWhitespace()
        guard lexer.hasKeyword("obj") else { return nil }
        return (PDFReference(number, generation), lexer.position + 3)
    }

    /// Parses the indirect object at `offset`.
    /// - Parameter length: resolves an indirect `/Length`; nil when it cannot be resolved.
    /// - Throws: `.syntax` when there is no `n g obj` at `offset` or no object after it.
    package static func parse(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, maxDepth: Int,
        length: (PDFReference) -> Int?
    ) throws(PDFError) -> ParsedIndirectObject {
        guard let (reference, bodyStart) = readHeader(bytes, at: offset) else {
            throw PDFError(.syntax, "no 'n g obj' header", offset: offset)
        }
        var parser = ObjectParser(bytes, at: bodyStart, maxDepth: maxDepth)
        var object: PDFObject
        do {
            object = try parser.parseObject()
        } catch
            where {
                var lexer = parser.lexer; lexer.skipWhitespace(); return lexer.hasKeyword("endobj")
            }()
        {
            // `n g obj endobj`: an empty object is null (qpdf reads it so, with a warning).
            parser.warnings.append(PDFWarning(.objectInvalid, "empty object read as null", offset: offset))
            object = .null
        }
        var warnings = parser.warnings
        var lexer = parser.lexer
        var streamData: Range<Int>? = nil
        lexer.skipWhitespace()
        if case .dictionary(let dictionary) = object, lexer.hasKeyword("stream") {
            var dataStart = lexer.position + 6
            // `stream` is followed by CRLF or LF (§7.3.8.1); accept a lone CR and stray spaces too.
            while dataStart < bytes.count, bytes[dataStart] == 0x20 || bytes[dataStart] == 0x09 { dataStart += 1 }
            if dataStart < bytes.count, bytes[dataStart] == 0x0D { dataStart += 1 }
            if dataStart < bytes.count, bytes[dataStart] == 0x0A { dataStart += 1 }
            var declared: Int? = nil
            switch dictionary[.length] {
            case .integer(let value)?: declared = value
            case .reference(let ref)?: declared = length(ref)
            default: break
            }
            if let declared, declared >= 0, declared <= bytes.count - dataStart,
                endstreamFollows(bytes, at: dataStart + declared)
            {
                streamData = dataStart..<(dataStart + declared)
                lexer.position = dataStart + declared
            } else {
                let end = findEndstream(bytes, from: dataStart)
                var dataEnd = end.dataEnd
                // The end of line before `endstream` is not data.
                if dataEnd > dataStart, bytes[dataEnd - 1] == 0x0A { dataEnd -= 1 }
                if dataEnd > dataStart, bytes[dataEnd - 1] == 0x0D { dataEnd -= 1 }
                streamData = dataStart..<dataEnd
                lexer.position = end.resume
                warnings.append(
                    PDFWarning(
                        .streamLengthInvalid,
                        "stream /Length \(declared.map(String.init) ?? "missing") is wrong; using \(dataEnd - dataStart)",
                        offset: dataStart, object: reference))
            }
            lexer.skipWhitespace()
            if lexer.hasKeyword("endstream") { lexer.position += 9 }
            lexer.skipWhitespace()
        }
        var end = lexer.position
        if lexer.hasKeyword("endobj") {
            end = lexer.position + 6
        } else if streamData == nil {
            warnings.append(PDFWarning(.syntax, "missing 'endobj'", offset: lexer.position, object: reference))
        }
        return ParsedIndirectObject(
            reference: reference, object: object, range: offset..<end, streamData: streamData, warnings: warnings)
    }

    /// True when `endstream` (after optional white space) is at `offset`.
    private static func endstreamFollows(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        var lexer = Lexer(bytes, at: offset)
        lexer.skipWhitespace()
        return lexer.hasKeyword("endstream") || (lexer.position - offset <= 2 && lexer.hasKeyword("endobj"))
    }

    /// Finds where stream data ends when `/Length` is wrong: at `endstream`, else at `endobj`, else at the end.
    private static func findEndstream(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (dataEnd: Int, resume: Int) {
        if let found = search(bytes, for: "endstream", from: start) { return (found, found) }
        if let found = search(bytes, for: "endobj", from: start) { return (found, found) }
        return (bytes.count, bytes.count)
    }

    /// The offset of the first occurrence of `needle` at or after `start`.
    package static func search(_ bytes: UnsafeRawBufferPointer, for needle: StaticString, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let found = cshim_memmem(base + start, bytes.count - start, needle.utf8Start, needle.utf8CodeUnitCount)
        else {
            return nil
        }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The offset of the last occurrence of `needle` that starts before `end`.
    package static func searchBackward(_ bytes: UnsafeRawBufferPointer, for needle: StaticString, before end: Int)
        -> Int?
    {
        let length = needle.utf8CodeUnitCount
        let text = needle.utf8Start
        var index = min(end, bytes.count) - length
        while index >= 0 {
            if bytes[index] == text[0] {
                var match = true
                for offset in 1..<length where bytes[index + offset] != text[offset] {
                    match = false
                    break
                }
                if match { return index }
            }
            index -= 1
        }
        return nil
    }
}
