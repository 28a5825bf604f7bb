extension IncrementalUpdate {
    /// Sets document information entries (ISO 32000-2 §14.3.3) and the matching XMP properties of the
    /// catalog's `/Metadata` stream (§14.3.2) where that stream already has them.
    ///
    /// - Parameter entries: key (`Title`, `Author`, `Subject`, `Keywords`, `Creator`, `Producer`, or any
    ///   other) to text; nil or "" removes the key.
    public mutating func setDocumentInformation(_ entries: [(key: String, value: String?)]) {
        var info = base.resolve(base.trailer[.info] ?? .null).dictionaryValue ?? PDFDictionary()
        for (key, value) in entries {
            if let value, !value.isEmpty {
                info[PDFName(key)] = .string(PDFString(text: value))
            } else {
                info[PDFName(key)] = nil
            }
        }
        if case .reference(let reference)? = base.trailer[.info] {
            replace(reference, with: .dictionary(info))
        } else {
            setTrailer(.info, to: .reference(add(.dictionary(info))))
        }

        guard let catalog = base.catalog, case .reference(let metadataReference)? = catalog[.metadata],
            let stream = base.object(metadataReference).streamValue,
            let data = try? stream.decodedData()
        else { return }
        var xmp = XMPPacket(String(decoding: data, as: UTF8.self))
        var changed = false
        for (key, value) in entries {
            changed = xmp.set(infoKey: key, to: value ?? "") || changed
        }
        guard changed else { return }
        var dictionary = stream.dictionary
        dictionary[.filter] = nil
        dictionary[.decodeParms] = nil
        // XMP stays uncompressed so that tools that do not parse PDF can still find it (§14.3.2).
        replace(
            metadataReference,
            with: .stream(PDFStream(dictionary: dictionary, data: Array(xmp.text.utf8), compress: false)))
    }
}

/// The few edits of an XMP packet that document information needs (ISO 16684-1).
package struct XMPPacket {
    package private(set) var text: String

    package init(_ text: String) { self.text = text }

    /// The XMP property for an Info key (ISO 32000-2 Table 349 mapping).
    private static let properties: [String: (name: String, container: String?)] = [
        "Title": ("dc:title", "rdf:Alt"),
        "Author": ("dc:creator", "rdf:Seq"),
        "Subject": ("dc:description", "rdf:Alt"),
        "Keywords": ("pdf:Keywords", nil),
        "Creator": ("xmp:CreatorTool", nil),
        "Producer": ("pdf:Producer", nil),
    ]

    /// Replaces the value of the property that mirrors `infoKey`, when the packet has it.
    /// - Returns: true when the packet changed.
    package mutating func set(infoKey: String, to value: String) -> Bool {
        guard let property = XMPPacket.properties[infoKey] else { return false }
        let escaped = XMPPacket.escape(value)
        // Element form: <dc:title>…</dc:title>
        if let open = text.firstRange(of: "<\(property.name)>"), let close = text.firstRange(of: "</\(property.name)>"),
            open.upperBound <= close.lowerBound
        {
            let inner: String
            if let container = property.container {
                let language = container == "rdf:Alt" ? " xml:lang=\"x-default\"" : ""
                inner = "<\(container)><rdf:li\(language)>\(escaped)</rdf:li></\(container)>"
            } else {
                inner = escaped
            }
            text.replaceSubrange(open.upperBound..<close.lowerBound, with: inner)
            return true
        }
        // Attribute form: pdf:Producer="…"
        if property.container == nil, let start = text.firstRange(of: "\(property.name)=\"") {
            guard let end = text[start.upperBound...].firstIndex(of: "\"") else { return false }
            text.replaceSubrange(start.upperBound..<end, with: escaped)
            return true
        }
        return false
    }

    /// The text of a simple property, in element (`<pdfaid:part>1</pdfaid:part>`) or attribute
    /// (`pdfaid:part="1"`) form, without white space (the values read here are single tokens).
    package func property(_ name: String) -> String? {
        if let open = text.firstRange(of: "<\(name)>"),
            let close = text[open.upperBound...].firstRange(of: "</\(name)>")
        {
            return String(text[open.upperBound..<close.lowerBound]).filter { !$0.isWhitespace }
        }
        for quote in ["\"", "'"] {
            guard let start = text.firstRange(of: "\(name)=\(quote)"),
                let end = text[start.upperBound...].firstRange(of: quote)
            else { continue }
            return String(text[start.upperBound..<end.lowerBound]).filter { !$0.isWhitespace }
        }
        return nil
    }

    private static func escape(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
