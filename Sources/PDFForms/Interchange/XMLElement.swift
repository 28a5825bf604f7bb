/// A small XML reader for form data (XFDF): elements, attributes, text, entities and CDATA.
/// Namespaces are kept as part of names; DTDs, comments and processing instructions are skipped.
struct XMLElement: Equatable {
    var name: String
    var attributes: [String: String] = [:]
    var children: [XMLElement] = []
    var text = ""

    /// The element's local name (without a namespace prefix).
    var localName: String { name.split(separator: ":").last.map(String.init) ?? name }

    func children(named local: String) -> [XMLElement] { children.filter { $0.localName == local } }

    /// Parses a document and returns its root element.
    /// - Throws: `.invalidData` with the byte offset of the problem.
    static func parse(_ text: String) throws(FormError) -> XMLElement {
        var reader = Reader(bytes: Array(text.utf8))
        return try reader.document()
    }

    static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            default: output.append(character)
            }
        }
        return output
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func document() throws(FormError) -> XMLElement {
            var stack: [XMLElement] = []
            var root: XMLElement? = nil
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "<") {
                    if starts("<?") {
                        try skip(past: "?>")
                    } else if starts("<!--") {
                        try skip(past: "-->")
                    } else if starts("<![CDATA[") {
                        position += 9
                        let start = position
                        try skip(past: "]]>")
                        if !stack.isEmpty {
                            stack[stack.count - 1].text += String(
                                decoding: bytes[start..<(position - 3)], as: UTF8.self)
                        }
                    } else if starts("<!") {
                        try skip(past: ">")
                    } else if starts("</") {
                        position += 2
                        let name = readName()
                        try skip(past: ">")
                        guard let element = stack.popLast(), element.name == name else {
                            throw failure("unexpected </\(name)>")
                        }
                        if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                    } else {
                        position += 1
                        var element = XMLElement(name: readName())
                        guard !element.name.isEmpty else { throw failure("element name expected") }
                        while true {
                            skipSpace()
                            guard position < bytes.count else { throw failure("unfinished tag") }
                            if starts("/>") {
                                position += 2
                                if stack.isEmpty {
                                    root = element
                                } else {
                                    stack[stack.count - 1].children.append(element)
                                }
                                break
                            }
                            if bytes[position] == UInt8(ascii: ">") {
                                position += 1
                                stack.append(element)
                                break
                            }
                            let attribute = readName()
                            skipSpace()
                            guard !attribute.isEmpty, position < bytes.count, bytes[position] == UInt8(ascii: "=")
                            else {
                                throw failure("attribute expected")
                            }
                            position += 1
                            skipSpace()
                            guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else {
                                throw failure("quoted attribute value expected")
                            }
                            let quote = bytes[position]
                            position += 1
                            let start = position
                            while position < bytes.count, bytes[position] != quote { position += 1 }
                            guard position < bytes.count else { throw failure("unfinished attribute value") }
                            element.attributes[attribute] = try decodeEntities(bytes[start..<position])
                            position += 1
                        }
                    }
                } else {
                    let start = position
                    while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
                    if !stack.isEmpty { stack[stack.count - 1].text += try decodeEntities(bytes[start..<position]) }
                }
            }
            guard stack.isEmpty, let root else { throw failure("the document is not closed") }
            return root
        }

        private func starts(_ text: String) -> Bool {
            let needle = Array(text.utf8)
            return position + needle.count <= bytes.count
                && Array(bytes[position..<(position + needle.count)]) == needle
        }

        private mutating func skip(past text: String) throws(FormError) {
            let needle = Array(text.utf8)
            while position + needle.count <= bytes.count {
                if Array(bytes[position..<(position + needle.count)]) == needle {
                    position += needle.count
                    return
                }
                position += 1
            }
            throw failure("'\(text)' expected")
        }

        private mutating func readName() -> String {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == UInt8(ascii: ">")
                    || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                {
                    break
                }
                position += 1
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        private mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
        }

        private func decodeEntities(_ slice: ArraySlice<UInt8>) throws(FormError) -> String {
            let text = String(decoding: slice, as: UTF8.self)
            guard text.contains("&") else { return text }
            var output = ""
            var rest = Substring(text)
            while let ampersand = rest.firstIndex(of: "&") {
                output += rest[..<ampersand]
                guard let semicolon = rest[ampersand...].firstIndex(of: ";") else { throw failure("unfinished entity") }
                let entity = rest[rest.index(after: ampersand)..<semicolon]
                switch entity {
                case "amp": output += "&"
                case "lt": output += "<"
                case "gt": output += ">"
                case "quot": output += "\""
                case "apos": output += "'"
                default:
                    var value: UInt32? = nil
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                        value = UInt32(entity.dropFirst(2), radix: 16)
                    } else if entity.hasPrefix("#") {
                        value = UInt32(entity.dropFirst())
                    }
                    guard let value, let scalar = Unicode.Scalar(value) else {
                        throw failure("unknown entity &\(entity);")
                    }
                    output.unicodeScalars.append(scalar)
                }
                rest = rest[rest.index(after: semicolon)...]
            }
            return output + rest
        }

        private func failure(_ message: String) -> FormError {
            FormError(.invalidData, "XML: \(message) at byte \(position)")
        }
    }
}
