/// Writes objects in PDF syntax (ISO 32000-2 §7.3), optionally encrypting strings and streams.
package struct PDFSerializer {
    package var output: [UInt8] = []
    /// The first failure of an IV or a cipher during `write(_:encryption:)`, thrown when it returns.
    private var encryptionFailure: PDFError?

    /// Encrypts the strings and stream data of the object being written.
    package struct Encryption {
        /// The cipher of the object's strings (nil: strings are not encrypted).
        package var strings: ObjectCipher?
        /// The cipher of the object's stream data (nil: the data is not encrypted).
        package var stream: ObjectCipher?
        /// Makes a fresh 16-byte initialisation vector for AES.
        package var iv: () throws(PDFError) -> [UInt8]
    }

    package init() {}

    package mutating func append(_ text: String) { output.append(contentsOf: text.utf8) }
    package mutating func append(_ bytes: [UInt8]) { output.append(contentsOf: bytes) }

    /// Writes `object`; streams are written with their data (`/Length` set to the bytes written).
    package mutating func write(_ object: PDFObject) {
        writeValue(object, encryption: nil)
    }

    /// Writes `object` with its strings and stream data encrypted as `encryption` says.
    /// - Throws: `PDFError` from the IV source or the cipher (`.writeFailed`); the output is then
    ///   incomplete and must be discarded.
    package mutating func write(_ object: PDFObject, encryption: Encryption?) throws(PDFError) {
        writeValue(object, encryption: encryption)
        if let failure = encryptionFailure {
            encryptionFailure = nil
            throw failure
        }
    }

    /// The encryption of one string or stream; after a failure, nothing more is encrypted (the
    /// output is discarded anyway) so the first error is the one reported.
    private mutating func encrypt(_ bytes: [UInt8], with cipher: ObjectCipher, _ encryption: Encryption) -> [UInt8] {
        guard encryptionFailure == nil else { return [] }
        do {
            return try cipher.encrypt(bytes, iv: try encryption.iv())
        } catch {
            encryptionFailure = error
            return []
        }
    }

    private mutating func writeValue(_ object: PDFObject, encryption: Encryption?) {
        switch object {
        case .null: append("null")
        case .boolean(let value): append(value ? "true" : "false")
        case .integer(let value): append(String(value))
        case .real(let real): append(PDFSerializer.realText(real))
        case .string(let string):
            if let encryption, let cipher = encryption.strings {
                let encrypted = encrypt(string.bytes, with: cipher, encryption)
                writeString(PDFString(bytes: encrypted, isHex: true))
            } else {
                writeString(string)
            }
        case .name(let name): writeName(name)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(0x20) }
                writeValue(item, encryption: encryption)
            }
            output.append(UInt8(ascii: "]"))
        case .dictionary(let dictionary):
            writeDictionary(dictionary, encryption: encryption)
        case .stream(let stream):
            var data = stream.encodedBytes()
            if let encryption, let cipher = encryption.stream { data = encrypt(data, with: cipher, encryption) }
            var dictionary = stream.dictionary
            dictionary[.length] = .integer(data.count)
            writeDictionary(dictionary, encryption: encryption)
            append("\nstream\n")
            output.append(contentsOf: data)
            append("\nendstream")
        case .reference(let reference):
            append("\(reference.number) \(reference.generation) R")
        }
    }

    private mutating func writeDictionary(_ dictionary: PDFDictionary, encryption: Encryption?) {
        // A signature dictionary's /Contents is never encrypted (§7.6.2).
        let isSignature = dictionary[.byteRange] != nil
        append("<<")
        for entry in dictionary where !entry.value.isNull {
            writeName(entry.key)
            let value = entry.value
            switch value {
            case .integer, .real, .boolean, .reference: output.append(0x20)
            default: break
            }
            writeValue(value, encryption: isSignature && entry.key == .contents ? nil : encryption)
        }
        append(">>")
    }

    /// Writes `/Name` with `#xx` escapes for delimiters, white space, `#` and bytes outside `!`…`~`.
    package mutating func writeName(_ name: PDFName) {
        output.append(UInt8(ascii: "/"))
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in name.bytes {
            if byte < 0x21 || byte > 0x7E || byte == UInt8(ascii: "#") || Lexer.isDelimiter(byte) {
                output.append(UInt8(ascii: "#"))
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            } else {
                output.append(byte)
            }
        }
    }

    /// Writes a string literally with escapes, or in hex when it was hex.
    package mutating func writeString(_ string: PDFString) {
        if string.isHex {
            output.append(UInt8(ascii: "<"))
            output.append(contentsOf: ASCIIHex.encode(string.bytes))
            output.append(UInt8(ascii: ">"))
            return
        }
        output.append(UInt8(ascii: "("))
        for byte in string.bytes {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "\\"):
                output.append(UInt8(ascii: "\\"))
                output.append(byte)
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x20...0x7E: output.append(byte)
            default:
                output.append(UInt8(ascii: "\\"))
                output.append(UInt8(ascii: "0") + (byte >> 6))
                output.append(UInt8(ascii: "0") + ((byte >> 3) & 7))
                output.append(UInt8(ascii: "0") + (byte & 7))
            }
        }
        output.append(UInt8(ascii: ")"))
    }

    /// A real as its literal when it has a valid one, else formatted without an exponent.
    static func realText(_ real: PDFReal) -> String {
        if let literal = real.literal, isPlainNumber(literal) { return literal }
        return PDFReal.format(real.value, precision: 10)
    }

    private static func isPlainNumber(_ literal: String) -> Bool {
        var sawDigit = false
        var sawPoint = false
        for (index, character) in literal.utf8.enumerated() {
            switch character {
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if index != 0 { return false }
            case UInt8(ascii: "."): if sawPoint { return false } else { sawPoint = true }
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            default: return false
            }
        }
        return sawDigit
    }

    /// The bytes of `object` in PDF syntax.
    package static func bytes(of object: PDFObject) -> [UInt8] {
        var serializer = PDFSerializer()
        serializer.write(object)
        return serializer.output
    }
}
