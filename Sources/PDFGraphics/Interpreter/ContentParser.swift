public import PDFCore

/// One operation of a content stream (ISO 32000-2 §7.8.2): operands then an operator.
public struct ContentOperation: Sendable {
    /// The operator, e.g. `re`, `Tj`, `BI` (an inline image, whose data is in ``inlineImage``).
    public var name: String
    /// The operands before the operator, in order.
    public var operands: [PDFObject]
    /// For `BI … ID … EI`: the inline image's dictionary (abbreviations kept) and data.
    public var inlineImage: (dictionary: PDFDictionary, data: [UInt8])?

    /// An operation; each argument sets the property of the same name.
    public init(name: String, operands: [PDFObject], inlineImage: (dictionary: PDFDictionary, data: [UInt8])? = nil) {
        self.name = name
        self.operands = operands
        self.inlineImage = inlineImage
    }
}

/// Splits content streams into operations, liberally: a malformed token is skipped with a warning,
/// operands never pile up without bound, and inline image data is found even without a length.
public struct ContentParser {
    /// Operands kept before an operator at most (no operator takes more than a few dozen, `TJ`'s
    /// array counting as one).
    public static let maxOperands = 4096

    /// Parses `bytes` (the concatenation of a page's content streams, or one form's).
    public static func operations(in bytes: [UInt8]) -> (operations: [ContentOperation], warnings: [String]) {
        var operations: [ContentOperation] = []
        let warnings = forEachOperation(in: bytes) { operation in
            operations.append(operation)
            return true
        }
        return (operations, warnings)
    }

    /// Parses `bytes` and hands each operation to `body` as soon as it is read, until `body`
    /// returns false; returns the problems met.
    public static func forEachOperation(in bytes: [UInt8], _ body: (ContentOperation) -> Bool) -> [String] {
        var warnings: [String] = []
        bytes.withUnsafeBytes { buffer in
            var lexer = Lexer(buffer)
            var operands: [PDFObject] = []
            while true {
                let start = lexer.position
                let token = lexer.next()
                switch token {
                case .end:
                    return
                case .integer(let value): operands.append(.integer(value))
                case .real(let value): operands.append(.real(value))
                case .string(let value): operands.append(.string(value))
                case .name(let value): operands.append(.name(value))
                case .arrayOpen, .dictionaryOpen:
                    var parser = ObjectParser(buffer, at: start, maxDepth: 64)
                    do {
                        operands.append(try parser.parseObject())
                        lexer.position = max(parser.lexer.position, start + 1)
                    } catch {
                        warnings.append("content stream: \(error) at offset \(start)")
                        lexer.position = start + 1
                        operands.removeAll()
                    }
                case .arrayClose, .dictionaryClose, .braceOpen, .braceClose:
                    warnings.append("content stream: a stray delimiter at offset \(start)")
                    operands.removeAll()
                case .keyword(let keyword):
                    let name = keyword.description
                    switch name {
                    case "true": operands.append(.boolean(true))
                    case "false": operands.append(.boolean(false))
                    case "null": operands.append(.null)
                    case "BI":
                        if let image = inlineImage(&lexer, buffer: buffer, warnings: &warnings),
                            !body(ContentOperation(name: "BI", operands: [], inlineImage: image))
                        {
                            return
                        }
                        operands.removeAll()
                    default:
                        guard body(ContentOperation(name: name, operands: operands)) else { return }
                        operands.removeAll(keepingCapacity: true)
                    }
                }
                if operands.count > maxOperands {
                    warnings.append("content stream: more than \(maxOperands) operands without an operator")
                    operands.removeAll()
                }
            }
        }
        return warnings
    }

    /// Reads `key value … ID <data> EI` after `BI` (ISO 32000-2 §8.9.7).
    private static func inlineImage(
        _ lexer: inout Lexer, buffer: UnsafeRawBufferPointer, warnings: inout [String]
    ) -> (dictionary: PDFDictionary, data: [UInt8])? {
        var dictionary = PDFDictionary()
        // Keys and values up to the ID keyword.
        while true {
            let start = lexer.position
            let token = lexer.next()
            switch token {
            case .end:
                warnings.append("content stream: an inline image without ID")
                return nil
            case .keyword(let keyword) where keyword.description == "ID":
                return imageData(&lexer, buffer: buffer, dictionary: dictionary, warnings: &warnings)
            case .name(let key):
                var parser = ObjectParser(buffer, at: lexer.position, maxDepth: 16)
                do {
                    let value = try parser.parseObject()
                    dictionary[key] = value
                    lexer.position = parser.lexer.position
                } catch {
                    warnings.append("content stream: inline image entry /\(key.string): \(error)")
                    lexer.position = max(lexer.position, start + 1)
                }
            default:
                warnings.append("content stream: unexpected token in an inline image dictionary at offset \(start)")
            }
        }
    }

    /// The data after `ID` (one white-space byte) up to `EI`.
    private static func imageData(
        _ lexer: inout Lexer, buffer: UnsafeRawBufferPointer, dictionary: PDFDictionary, warnings: inout [String]
    ) -> (dictionary: PDFDictionary, data: [UInt8])? {
        var start = lexer.position
        if start < buffer.count, Lexer.isWhitespace(buffer[start]) { start += 1 }
        // Unfiltered data has a known length; then EI must follow.
        if let length = unfilteredLength(dictionary), start + length <= buffer.count {
            var end = start + length
            var probe = end
            while probe < buffer.count, Lexer.isWhitespace(buffer[probe]) { probe += 1 }
            if probe + 1 < buffer.count, buffer[probe] == 0x45, buffer[probe + 1] == 0x49 {
                lexer.position = probe + 2
                return (dictionary, Array(buffer[start..<end]))
            }
            end = start  // the length was wrong: search instead
        }
        // Search for white space, "EI", then white space or the end, followed by something that
        // looks like content (an operator or operand), as pdf.js does.
        var index = start
        while index + 2 <= buffer.count {
            if buffer[index] == 0x45, buffer[index + 1] == 0x49,
                index == start || Lexer.isWhitespace(buffer[index - 1]),
                index + 2 == buffer.count || Lexer.isWhitespace(buffer[index + 2])
                    || Lexer.isDelimiter(buffer[index + 2]),
                looksLikeContent(buffer, after: index + 2)
            {
                var end = index
                if end > start, Lexer.isWhitespace(buffer[end - 1]) { end -= 1 }
                lexer.position = index + 2
                return (dictionary, Array(buffer[start..<max(start, end)]))
            }
            index += 1
        }
        warnings.append("content stream: an inline image without EI")
        lexer.position = buffer.count
        return nil
    }

    /// The next few bytes after a candidate `EI` are printable text (binary image data rarely is).
    private static func looksLikeContent(_ buffer: UnsafeRawBufferPointer, after index: Int) -> Bool {
        var checked = 0
        var position = index
        while position < buffer.count, checked < 16 {
            let byte = buffer[position]
            if byte < 0x09 || (byte > 0x0D && byte < 0x20) || byte > 0x7E { return false }
            position += 1
            checked += 1
        }
        return true
    }

    /// The byte count of unfiltered inline image data, from its size and format.
    private static func unfilteredLength(_ dictionary: PDFDictionary) -> Int? {
        func value(_ long: String, _ short: String) -> PDFObject? {
            dictionary[PDFName(long)] ?? dictionary[PDFName(short)]
        }
        guard value("Filter", "F") == nil, let width = value("Width", "W")?.intValue,
            let height = value("Height", "H")?.intValue, width > 0, height > 0, width < 1 << 16, height < 1 << 16
        else { return nil }
        let isMask = value("ImageMask", "IM") == .boolean(true)
        let bits = isMask ? 1 : (value("BitsPerComponent", "BPC")?.intValue ?? 8)
        var components = 1
        if !isMask {
            switch value("ColorSpace", "CS") {
            case .name(let name)? where ["DeviceRGB", "RGB", "CalRGB"].contains(name.string): components = 3
            case .name(let name)? where ["DeviceCMYK", "CMYK"].contains(name.string): components = 4
            case .name(let name)? where ["DeviceGray", "G", "CalGray", "Indexed", "I"].contains(name.string):
                components = 1
            case .array(let items)? where items.first == .name("Indexed") || items.first == .name("I"): components = 1
            case nil: components = 1
            default: return nil
            }
        }
        return height * ((width * components * bits + 7) / 8)
    }
}
