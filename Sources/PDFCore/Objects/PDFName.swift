/// A PDF name such as `/Type` (ISO 32000-2 §7.3.5).
///
/// A name is a sequence of bytes. Names that are valid UTF-8 (nearly all) are kept as their text;
/// names that are not (for example Shift-JIS font names) keep each byte as one Latin-1 scalar and
/// are marked, so the bytes written back are always the bytes read.
public struct PDFName: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name's text without the leading slash.
    public let string: String
    /// True when the bytes were not valid UTF-8 and `string` holds one scalar per byte.
    public let isRawBytes: Bool

    /// A name with the given text (written as UTF-8).
    public init(_ string: String) {
        self.string = string
        self.isRawBytes = false
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// A name made of the given bytes (the escapes `#xx` already resolved).
    public init<Bytes: Collection<UInt8>>(bytes: Bytes) {
        if let text = String(validating: bytes, as: UTF8.self) {
            self.string = text
            self.isRawBytes = false
        } else {
            var scalars = String.UnicodeScalarView()
            for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
            self.string = String(scalars)
            self.isRawBytes = true
        }
    }

    /// The bytes of the name (without the slash and without `#` escapes).
    public var bytes: [UInt8] {
        if isRawBytes { return string.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }
        return Array(string.utf8)
    }

    public static func < (lhs: PDFName, rhs: PDFName) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    public var description: String { "/" + string }
}

// Names used by the core (ISO 32000-2 clauses in the comments).
extension PDFName {
    // §7.3.8 streams
    public static let length: PDFName = "Length"
    public static let filter: PDFName = "Filter"
    public static let decodeParms: PDFName = "DecodeParms"
    public static let dp: PDFName = "DP"
    public static let f: PDFName = "F"
    // §7.4 filters and their abbreviations (§8.9.7)
    public static let flateDecode: PDFName = "FlateDecode"
    public static let lzwDecode: PDFName = "LZWDecode"
    public static let asciiHexDecode: PDFName = "ASCIIHexDecode"
    public static let ascii85Decode: PDFName = "ASCII85Decode"
    public static let runLengthDecode: PDFName = "RunLengthDecode"
    public static let ccittFaxDecode: PDFName = "CCITTFaxDecode"
    public static let jbig2Decode: PDFName = "JBIG2Decode"
    public static let dctDecode: PDFName = "DCTDecode"
    public static let jpxDecode: PDFName = "JPXDecode"
    public static let crypt: PDFName = "Crypt"
    public static let predictor: PDFName = "Predictor"
    public static let colors: PDFName = "Colors"
    public static let bitsPerComponent: PDFName = "BitsPerComponent"
    public static let columns: PDFName = "Columns"
    public static let earlyChange: PDFName = "EarlyChange"
    // §7.5 file structure
    public static let type: PDFName = "Type"
    public static let subtype: PDFName = "Subtype"
    public static let size: PDFName = "Size"
    public static let prev: PDFName = "Prev"
    public static let root: PDFName = "Root"
    public static let info: PDFName = "Info"
    public static let id: PDFName = "ID"
    public static let encrypt: PDFName = "Encrypt"
    public static let xRef: PDFName = "XRef"
    public static let xRefStm: PDFName = "XRefStm"
    public static let index: PDFName = "Index"
    public static let w: PDFName = "W"
    public static let objStm: PDFName = "ObjStm"
    public static let n: PDFName = "N"
    public static let first: PDFName = "First"
    public static let extends: PDFName = "Extends"
    public static let linearized: PDFName = "Linearized"
    // §7.6 encryption
    public static let standard: PDFName = "Standard"
    public static let v: PDFName = "V"
    public static let r: PDFName = "R"
    public static let o: PDFName = "O"
    public static let u: PDFName = "U"
    public static let oe: PDFName = "OE"
    public static let ue: PDFName = "UE"
    public static let p: PDFName = "P"
    public static let perms: PDFName = "Perms"
    public static let cf: PDFName = "CF"
    public static let cfm: PDFName = "CFM"
    public static let stmF: PDFName = "StmF"
    public static let strF: PDFName = "StrF"
    public static let eff: PDFName = "EFF"
    public static let identity: PDFName = "Identity"
    public static let encryptMetadata: PDFName = "EncryptMetadata"
    public static let name: PDFName = "Name"
    public static let none: PDFName = "None"
    public static let v2: PDFName = "V2"
    public static let aesV2: PDFName = "AESV2"
    public static let aesV3: PDFName = "AESV3"
    public static let metadata: PDFName = "Metadata"
    // §7.7 document structure
    public static let catalog: PDFName = "Catalog"
    public static let pages: PDFName = "Pages"
    public static let page: PDFName = "Page"
    public static let kids: PDFName = "Kids"
    public static let parent: PDFName = "Parent"
    public static let count: PDFName = "Count"
    public static let resources: PDFName = "Resources"
    public static let mediaBox: PDFName = "MediaBox"
    public static let cropBox: PDFName = "CropBox"
    public static let bleedBox: PDFName = "BleedBox"
    public static let trimBox: PDFName = "TrimBox"
    public static let artBox: PDFName = "ArtBox"
    public static let rotate: PDFName = "Rotate"
    public static let userUnit: PDFName = "UserUnit"
    public static let contents: PDFName = "Contents"
    public static let annots: PDFName = "Annots"
    public static let version: PDFName = "Version"
    // §7.11.4 embedded file streams
    public static let embeddedFile: PDFName = "EmbeddedFile"
    // §12.7 forms, §12.8 signatures
    public static let acroForm: PDFName = "AcroForm"
    public static let fields: PDFName = "Fields"
    public static let ft: PDFName = "FT"
    public static let sig: PDFName = "Sig"
    public static let byteRange: PDFName = "ByteRange"
    public static let docTimeStamp: PDFName = "DocTimeStamp"
}
