import PDFCore
import PDFFonts

/// The pieces every font type shares: names, descriptors, programs, `/ToUnicode`.
extension LoadedFont {
    /// Font programs larger than this are not read (the largest CJK fonts are about 30 MB).
    static let maxProgramSize = 64 << 20
    /// `/ToUnicode` and embedded CMap streams larger than this are not read.
    static let maxCMapSize = 16 << 20

    /// `name` without a subset tag: six uppercase letters and a plus sign (§9.9.2).
    static func withoutSubsetTag(_ name: String) -> String {
        let utf8 = Array(name.utf8)
        guard utf8.count > 7, utf8[6] == UInt8(ascii: "+"),
            utf8[..<6].allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
        else { return name }
        return String(decoding: utf8[7...], as: UTF8.self)
    }

    /// Reads `/FontDescriptor` and its program into `parts`.
    static func loadDescriptor(_ parts: inout Parts, font: PDFDictionary, document: PDFDocument) {
        let descriptorObject = document.resolve(font, "FontDescriptor")
        let dictionary = descriptorObject?.dictionaryValue
        if descriptorObject != nil, dictionary == nil, descriptorObject?.isNull == false {
            parts.warnings.append("/FontDescriptor is not a dictionary")
        }
        let fallback = parts.standardFont.map { FontDescriptorInfo(standard: StandardFont($0)) }
        var warnings: [String] = []
        parts.descriptor = FontDescriptorInfo(dictionary, document: document, fallback: fallback, warnings: &warnings)
        if parts.kind != .type3, fallback == nil { parts.warnings += warnings }
        if let dictionary, let loaded = loadProgram(dictionary, document: document, warnings: &parts.warnings) {
            parts.program = loaded.program
            parts.clearTextLength = loaded.clearTextLength
        }
    }

    /// The embedded program of a descriptor, decoded, its format told by its first bytes, and the
    /// `/Length1` of a Type 1 program.
    static func loadProgram(
        _ descriptor: PDFDictionary, document: PDFDocument, warnings: inout [String]
    ) -> (program: Program, clearTextLength: Int?)? {
        for (key, declared) in [("FontFile", ProgramFormat.type1), ("FontFile2", .trueType), ("FontFile3", .cff)] {
            guard let object = document.resolve(descriptor, PDFName(key)), !object.isNull else { continue }
            guard let stream = object.streamValue else {
                warnings.append("/\(key) is not a stream")
                continue
            }
            let data: [UInt8]
            do {
                data = try stream.decodedData(maxSize: maxProgramSize)
            } catch {
                warnings.append("/\(key) could not be decoded: \(error.message)")
                continue
            }
            guard !data.isEmpty else {
                warnings.append("/\(key) is empty")
                continue
            }
            var format = declared
            if key == "FontFile3", stream.dictionary.name(.subtype)?.string == "OpenType" { format = .openType }
            if let sniffed = sniff(data), sniffed != format {
                if !(format == .openType && sniffed == .trueType) {
                    warnings.append("/\(key) holds a \(sniffed) program")
                }
                format = sniffed
            }
            return (Program(data: data, format: format), document.resolve(stream.dictionary, "Length1")?.intValue)
        }
        return nil
    }

    /// The format the first bytes of a program show, or nil when they show none.
    static func sniff(_ data: [UInt8]) -> ProgramFormat? {
        guard data.count >= 4 else { return nil }
        let head = Array(data.prefix(4))
        if head == Array("OTTO".utf8) { return .openType }
        if head == [0, 1, 0, 0] || head == Array("true".utf8) || head == Array("ttcf".utf8) { return .trueType }
        if head[0] == 1, head[1] == 0, (1...4).contains(head[3]) { return .cff }
        if head[0] == 0x80, head[1] == 0x01 { return .type1 }
        if head[0] == UInt8(ascii: "%"), head[1] == UInt8(ascii: "!") { return .type1 }
        return nil
    }

    /// `/ToUnicode` of a font, parsed; nil when absent or unreadable (with a warning).
    static func loadToUnicode(_ font: PDFDictionary, document: PDFDocument, warnings: inout [String]) -> CMap? {
        guard let object = document.resolve(font, "ToUnicode"), !object.isNull else { return nil }
        guard let stream = object.streamValue else {
            if object.nameValue?.string != "Identity-H" { warnings.append("/ToUnicode is not a stream") }
            return nil
        }
        do {
            let data = try stream.decodedData(maxSize: maxCMapSize)
            let cmap = CMapParser.parse(data, warnings: &warnings) { PredefinedCMaps.named($0, depth: $1) }
            if !cmap.hasText { warnings.append("/ToUnicode maps no code") }
            return cmap
        } catch {
            warnings.append("/ToUnicode could not be decoded: \(error.message)")
            return nil
        }
    }
}
