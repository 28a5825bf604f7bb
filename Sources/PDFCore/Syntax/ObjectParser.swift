/// Parses PDF objects (ISO 32000-2 §7.3) from a lexer, iteratively with an explicit stack so the
/// nesting depth is bounded by ``ParseOptions/maxNestingDepth`` rather than by the call stack.
///
/// Damage is repaired with a warning where the intent is clear (a missing `>>` or `]` at a keyword
/// that cannot be inside an object, an odd dictionary, an unknown keyword read as null).
package struct ObjectParser {
    package var lexer: Lexer
    package let maxDepth: Int
    package var warnings: [PDFWarning] = []

    private enum Frame {
        case array([PDFObject])
        case dictionary(PDFDictionary, key: PDFName?)
    }

    package init(_ bytes: UnsafeRawBufferPointer, at position: Int = 0, maxDepth: Int = 256) {
        lexer = Lexer(bytes, at: position)
        self.maxDepth = maxDepth
    }

    /// Parses one object (a stream's dictionary is returned as a dictionary; the caller reads the
    /// `stream` keyword and data).
    /// - Throws: `.syntax` when no object starts here; `.limitExceeded` past the nesting limit.
    package mutating func parseObject() throws(PDFError) -> PDFObject {
        var stack: [Frame] = []
        while true {
            let tokenStart = lexer.position
            let token = lexer.next()
            var value: PDFObject
            switch token {
            case .integer(let number):
                value = .integer(number)
                if number >= 0, let tail = lexer.peekReferenceTail() {
                    lexer.position = tail.end
                    value = .reference(PDFReference(number, tail.generation))
                }
            case .real(let real): value = .real(real)
            case .string(let string): value = .string(string)
            case .name(let name):
                value = .name(name)
                if lexer.strayHashes > 0 {
                    warn(.syntax, "name /\(name.string) has a '#' without two hex digits", at: tokenStart)
                    lexer.strayHashes = 0
                }
            case .arrayOpen, .dictionaryOpen:
                guard stack.count < maxDepth else {
                    throw PDFError(.limitExceeded, "objects nested deeper than \(maxDepth)", offset: tokenStart)
                }
                stack.append(token == .arrayOpen ? .array([]) : .dictionary(PDFDictionary(), key: nil))
                continue
            case .arrayClose:
                guard case .array(let items) = stack.last else {
                    warn(.syntax, "unexpected ']'", at: tokenStart)
                    if stack.isEmpty { throw PDFError(.syntax, "unexpected ']'", offset: tokenStart) }
                    continue
                }
                stack.removeLast()
                value = .array(items)
            case .dictionaryClose:
                if lexer.loneAngles > 0 {
                    warn(.syntax, "'>' read as '>>'", at: tokenStart)
                    lexer.loneAngles = 0
                }
                guard case .dictionary(let dictionary, let key) = stack.last else {
                    warn(.syntax, "unexpected '>>'", at: tokenStart)
                    if stack.isEmpty { throw PDFError(.syntax, "unexpected '>>'", offset: tokenStart) }
                    continue
                }
                if let key { warn(.syntax, "dictionary key /\(key.string) has no value", at: tokenStart) }
                stack.removeLast()
                value = .dictionary(dictionary)
            case .keyword(let keyword):
                switch keyword {
                case .true: value = .boolean(true)
                case .false: value = .boolean(false)
                case .null: value = .null
                case .endobj, .stream, .endstream, .obj, .xref, .trailer, .startxref:
                    // A keyword that cannot be inside an object: close what is open and stop before it.
                    lexer.position = tokenStart
                    if stack.isEmpty {
                        throw PDFError(.syntax, "expected an object, found '\(keyword)'", offset: tokenStart)
                    }
                    warn(.syntax, "object not closed before '\(keyword)'", at: tokenStart)
                    return close(&stack)
                default:
                    if stack.isEmpty {
                        throw PDFError(.syntax, "expected an object, found '\(keyword)'", offset: tokenStart)
                    }
                    warn(.syntax, "unknown token '\(keyword)' read as null", at: tokenStart)
                    value = .null
                }
            case .braceOpen, .braceClose:
                if stack.isEmpty { throw PDFError(.syntax, "unexpected brace", offset: tokenStart) }
                warn(.syntax, "unexpected brace read as null", at: tokenStart)
                value = .null
            case .end:
                if stack.isEmpty { throw PDFError(.syntax, "unexpected end of data", offset: tokenStart) }
                warn(.syntax, "object not closed at end of data", at: tokenStart)
                return close(&stack)
            }
            if stack.isEmpty { return value }
            attach(value, to: &stack, at: tokenStart)
        }
    }

    private mutating func attach(_ value: PDFObject, to stack: inout [Frame], at offset: Int) {
        switch stack[stack.count - 1] {
        case .array(var items):
            stack[stack.count - 1] = .array([])  // keep the array uniquely referenced
            items.append(value)
            stack[stack.count - 1] = .array(items)
        case .dictionary(var dictionary, let key):
            if let key {
                stack[stack.count - 1] = .dictionary(PDFDictionary(), key: nil)
                dictionary.appendParsed(key: key, value: value)
                stack[stack.count - 1] = .dictionary(dictionary, key: nil)
            } else if case .name(let name) = value {
                stack[stack.count - 1] = .dictionary(dictionary, key: name)
            } else {
                warn(.syntax, "dictionary key is a \(value.typeName), not a name; skipped", at: offset)
            }
        }
    }

    /// Closes every open container (innermost first) and returns the outermost.
    private mutating func close(_ stack: inout [Frame]) -> PDFObject {
        var value: PDFObject = .null
        while let frame = stack.popLast() {
            switch frame {
            case .array(let items): value = .array(items)
            case .dictionary(let dictionary, _): value = .dictionary(dictionary)
            }
            if !stack.isEmpty { attach(value, to: &stack, at: lexer.position) }
        }
        return value
    }

    private mutating func warn(_ code: PDFWarning.Code, _ message: String, at offset: Int) {
        if warnings.count < 100 { warnings.append(PDFWarning(code, message, offset: offset)) }
    }
}
