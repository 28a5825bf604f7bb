import PDFCore
import PDFFonts

/// The built-in encoding of an embedded Type 1 font program (`/FontFile`; Adobe Type 1 Font Format
/// §2.3), read from its clear-text part: `/Encoding StandardEncoding def`, or an array filled by
/// `dup <code> /<name> put` lines.
enum Type1Program {
    /// The glyph names by code, or nil when the program has no readable `/Encoding`.
    ///
    /// - Parameters:
    ///   - program: the decoded font file (PFA text or PFB segments).
    ///   - clearTextLength: `/Length1`, when known: the clear-text part is not searched beyond it.
    static func encoding(in program: [UInt8], clearTextLength: Int?) -> [String?]? {
        var text = program
        // PFB: segments of type 1 (text) and 2 (binary) behind 6-byte headers.
        if text.count > 6, text[0] == 0x80, text[1] == 0x01 {
            let length = Int(text[2]) | Int(text[3]) << 8 | Int(text[4]) << 16 | Int(text[5]) << 24
            text = Array(text[6..<min(text.count, 6 + max(0, length))])
        } else if let clearTextLength, clearTextLength > 0, clearTextLength < text.count {
            text = Array(text[..<clearTextLength])
        }
        text = Array(text.prefix(1 << 20))
        guard let start = find(Array("/Encoding".utf8), in: text) else { return nil }
        return text.withUnsafeBytes { raw -> [String?]? in
            var lexer = Lexer(raw, at: start + 9)
            var names = [String?](repeating: nil, count: 256)
            var recent: [Lexer.Token] = []
            var found = false
            for _ in 0..<20_000 {
                let token = lexer.next()
                switch token {
                case .end:
                    return found ? names : nil
                case .keyword(let word):
                    if word == Keyword("StandardEncoding") && !found {
                        return (0..<256).map { BaseEncoding.standard.glyphName(at: UInt8($0)) }
                    }
                    if word == Keyword("put"), recent.count >= 2, case .integer(let code) = recent[recent.count - 2],
                        case .name(let name) = recent[recent.count - 1], (0..<256).contains(code)
                    {
                        names[code] = name.string
                        found = true
                    } else if word == Keyword("readonly") || word == Keyword("def") || word == Keyword("eexec") {
                        if found || word == Keyword("eexec") { return found ? names : nil }
                    }
                default: break
                }
                recent.append(token)
                if recent.count > 4 { recent.removeFirst() }
            }
            return found ? names : nil
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count, let first = needle.first else { return nil }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first, Array(haystack[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }
}
