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

    /// A name with the literal's text: `let key: PDFName = "Type"`.
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

    /// Orders names by their bytes, lexicographically.
    public static func < (lhs: PDFName, rhs: PDFName) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    /// The name with its slash, `/Type`, for messages; unlike in a written file, no byte is `#`-escaped.
    public var description: String { "/" + string }
}

// Names used by the core (ISO 32000-2 clauses in the comments).
extension PDFName {
    // §7.3.8 streams
    /// `/Length`: the number of bytes of a stream's encoded data (§7.3.8.2).
    public static let length: PDFName = "Length"
    /// `/Filter`: the filter or array of filters a stream's data is encoded with (§7.3.8.2).
    public static let filter: PDFName = "Filter"
    /// `/DecodeParms`: the parameters of a stream's filters, one dictionary or an array parallel to `/Filter`
    /// (§7.3.8.2).
    public static let decodeParms: PDFName = "DecodeParms"
    /// `/DP`: the abbreviation of `/DecodeParms` in an inline image (§8.9.7).
    public static let dp: PDFName = "DP"
    /// `/F`: an external stream's file specification (§7.3.8.2); in an annotation, its flags (§12.5.3).
    public static let f: PDFName = "F"
    // §7.4 filters and their abbreviations (§8.9.7)
    /// `/FlateDecode`: zlib/deflate compression (§7.4.4).
    public static let flateDecode: PDFName = "FlateDecode"
    /// `/LZWDecode`: LZW compression (§7.4.4).
    public static let lzwDecode: PDFName = "LZWDecode"
    /// `/ASCIIHexDecode`: hexadecimal digits, ending with `>` (§7.4.2).
    public static let asciiHexDecode: PDFName = "ASCIIHexDecode"
    /// `/ASCII85Decode`: base-85 digits, ending with `~>` (§7.4.3).
    public static let ascii85Decode: PDFName = "ASCII85Decode"
    /// `/RunLengthDecode`: byte-oriented run-length encoding (§7.4.5).
    public static let runLengthDecode: PDFName = "RunLengthDecode"
    /// `/CCITTFaxDecode`: CCITT Group 3 or 4 fax compression of monochrome images (§7.4.6).
    public static let ccittFaxDecode: PDFName = "CCITTFaxDecode"
    /// `/JBIG2Decode`: JBIG2 compression of monochrome images (§7.4.7).
    public static let jbig2Decode: PDFName = "JBIG2Decode"
    /// `/DCTDecode`: JPEG baseline or progressive compression (§7.4.8).
    public static let dctDecode: PDFName = "DCTDecode"
    /// `/JPXDecode`: JPEG 2000 compression (§7.4.9).
    public static let jpxDecode: PDFName = "JPXDecode"
    /// `/Crypt`: a stream's own crypt filter, overriding the document's default (§7.4.10).
    public static let crypt: PDFName = "Crypt"
    /// `/Predictor`: the PNG or TIFF predictor of Flate and LZW data; 1 for none (§7.4.4.4).
    public static let predictor: PDFName = "Predictor"
    /// `/Colors`: the colour components per sample, for a predictor (§7.4.4.4).
    public static let colors: PDFName = "Colors"
    /// `/BitsPerComponent`: the bits per colour component, for a predictor (§7.4.4.4) or an image (§8.9.5).
    public static let bitsPerComponent: PDFName = "BitsPerComponent"
    /// `/Width`: an image's width in samples (§8.9.5).
    public static let width: PDFName = "Width"
    /// `/Height`: an image's height in samples (§8.9.5).
    public static let height: PDFName = "Height"
    /// `/Columns`: the samples per row, for a predictor (§7.4.4.4) or CCITT data (§7.4.6).
    public static let columns: PDFName = "Columns"
    /// `/EarlyChange`: when LZW code widths grow, 1 (one code early, the default) or 0 (§7.4.4.2).
    public static let earlyChange: PDFName = "EarlyChange"
    // §7.5 file structure
    /// `/Type`: the type of object a dictionary is (§7.3.7).
    public static let type: PDFName = "Type"
    /// `/Subtype`: the kind of object within its `/Type`, such as an annotation's or an XObject's.
    public static let subtype: PDFName = "Subtype"
    /// `/Size`: one more than the highest object number, in a trailer or cross-reference stream (§7.5.5).
    public static let size: PDFName = "Size"
    /// `/Prev`: the byte offset of the previous cross-reference section (§7.5.5).
    public static let prev: PDFName = "Prev"
    /// `/Root`: the trailer's reference to the document catalog (§7.5.5).
    public static let root: PDFName = "Root"
    /// `/Info`: the trailer's reference to the document information dictionary (§14.3.3).
    public static let info: PDFName = "Info"
    /// `/ID`: the file identifier, two byte strings: the permanent and the changing one (§14.4).
    public static let id: PDFName = "ID"
    /// `/Encrypt`: the trailer's encryption dictionary (§7.6.2).
    public static let encrypt: PDFName = "Encrypt"
    /// `/XRef`: the `/Type` of a cross-reference stream (§7.5.8).
    public static let xRef: PDFName = "XRef"
    /// `/XRefStm`: in a hybrid file's trailer, the offset of the cross-reference stream (§7.5.8.4).
    public static let xRefStm: PDFName = "XRefStm"
    /// `/Index`: the object number ranges a cross-reference stream covers, pairs of first number and count (§7.5.8.2).
    public static let index: PDFName = "Index"
    /// `/W`: the byte widths of a cross-reference stream entry's three fields (§7.5.8.2).
    public static let w: PDFName = "W"
    /// `/ObjStm`: the `/Type` of an object stream (§7.5.7).
    public static let objStm: PDFName = "ObjStm"
    /// `/N`: the number of objects in an object stream (§7.5.7); in an appearance dictionary, the normal appearance
    /// (§12.5.5).
    public static let n: PDFName = "N"
    /// `/First`: the byte offset of the first object in an object stream's data (§7.5.7).
    public static let first: PDFName = "First"
    /// `/Extends`: the object stream an object stream extends (§7.5.7).
    public static let extends: PDFName = "Extends"
    /// `/Linearized`: the key that marks a linearization parameter dictionary (Annex F).
    public static let linearized: PDFName = "Linearized"
    // §7.6 encryption
    /// `/Standard`: the password-based security handler's `/Filter` (§7.6.4).
    public static let standard: PDFName = "Standard"
    /// `/V`: the encryption algorithm's version (§7.6.2); in a field, its value (§12.7.4.1).
    public static let v: PDFName = "V"
    /// `/R`: the standard security handler's revision (§7.6.4.2).
    public static let r: PDFName = "R"
    /// `/O`: the owner password's check value (§7.6.4.2).
    public static let o: PDFName = "O"
    /// `/U`: the user password's check value (§7.6.4.2).
    public static let u: PDFName = "U"
    /// `/OE`: the file key encrypted with the owner password, revision 6 (§7.6.4.2).
    public static let oe: PDFName = "OE"
    /// `/UE`: the file key encrypted with the user password, revision 6 (§7.6.4.2).
    public static let ue: PDFName = "UE"
    /// `/P`: the user access permission flags (§7.6.4.2).
    public static let p: PDFName = "P"
    /// `/Perms`: the permissions encrypted with the file key, revision 6 (§7.6.4.2).
    public static let perms: PDFName = "Perms"
    /// `/CF`: the crypt filters by name (§7.6.6).
    public static let cf: PDFName = "CF"
    /// `/CFM`: a crypt filter's method: `/None`, `/V2` (RC4), `/AESV2` or `/AESV3` (§7.6.6).
    public static let cfm: PDFName = "CFM"
    /// `/StmF`: the crypt filter for streams by default (§7.6.6).
    public static let stmF: PDFName = "StmF"
    /// `/StrF`: the crypt filter for strings (§7.6.6).
    public static let strF: PDFName = "StrF"
    /// `/EFF`: the crypt filter for embedded files (§7.6.6).
    public static let eff: PDFName = "EFF"
    /// `/Identity`: the crypt filter that leaves data as it is (§7.6.6); also the identity CMap and CID-to-glyph
    /// mapping (§9.7.5.2, §9.7.4.2).
    public static let identity: PDFName = "Identity"
    /// `/EncryptMetadata`: false when metadata streams are left unencrypted (§7.6.4.2).
    public static let encryptMetadata: PDFName = "EncryptMetadata"
    /// `/Name`: a crypt filter's name in a stream's `/Crypt` parameters (§7.4.10); also an object's name elsewhere,
    /// such as a signer's (§12.8.1).
    public static let name: PDFName = "Name"
    /// `/None`: the crypt filter method that does not encrypt (§7.6.6).
    public static let none: PDFName = "None"
    /// `/V2`: the RC4 crypt filter method (§7.6.6).
    public static let v2: PDFName = "V2"
    /// `/AESV2`: the AES-128 crypt filter method (§7.6.6).
    public static let aesV2: PDFName = "AESV2"
    /// `/AESV3`: the AES-256 crypt filter method (§7.6.6).
    public static let aesV3: PDFName = "AESV3"
    /// `/Metadata`: a catalog's or a component's XMP metadata stream (§14.3.2).
    public static let metadata: PDFName = "Metadata"
    // §7.7 document structure
    /// `/Catalog`: the `/Type` of the document catalog (§7.7.2).
    public static let catalog: PDFName = "Catalog"
    /// `/Pages`: the catalog's page tree root, and the `/Type` of page tree nodes (§7.7.3.2).
    public static let pages: PDFName = "Pages"
    /// `/Page`: the `/Type` of a page object (§7.7.3.3).
    public static let page: PDFName = "Page"
    /// `/Kids`: a node's children: page tree nodes and pages (§7.7.3.2), or fields (§12.7.4.1).
    public static let kids: PDFName = "Kids"
    /// `/Parent`: a node's parent in the page tree (§7.7.3) or the field tree (§12.7.4.1).
    public static let parent: PDFName = "Parent"
    /// `/Count`: the number of pages under a page tree node (§7.7.3.2).
    public static let count: PDFName = "Count"
    /// `/Resources`: the resources a content stream names, inheritable in the page tree (§7.8.3).
    public static let resources: PDFName = "Resources"
    /// `/MediaBox`: the page's physical medium, inheritable (§7.7.3.3, §14.11.2).
    public static let mediaBox: PDFName = "MediaBox"
    /// `/CropBox`: the visible region of the page, inheritable; the media box by default (§14.11.2).
    public static let cropBox: PDFName = "CropBox"
    /// `/BleedBox`: the region to clip to in production (§14.11.2).
    public static let bleedBox: PDFName = "BleedBox"
    /// `/TrimBox`: the page's intended dimensions after trimming (§14.11.2).
    public static let trimBox: PDFName = "TrimBox"
    /// `/ArtBox`: the extent of the page's meaningful content (§14.11.2).
    public static let artBox: PDFName = "ArtBox"
    /// `/Rotate`: the page's rotation clockwise when shown, a multiple of 90 degrees, inheritable (§7.7.3.3).
    public static let rotate: PDFName = "Rotate"
    /// `/UserUnit`: the size of a user space unit in 1/72 inch (§14.11.2).
    public static let userUnit: PDFName = "UserUnit"
    /// `/Contents`: a page's content stream or streams (§7.7.3.3); in a signature dictionary, the CMS signature
    /// (§12.8.1).
    public static let contents: PDFName = "Contents"
    /// `/Annots`: a page's annotations (§12.5.2).
    public static let annots: PDFName = "Annots"
    /// `/Version`: the catalog's PDF version, overriding the header's when later (§7.7.2).
    public static let version: PDFName = "Version"
    // §7.11.4 embedded file streams
    /// `/EmbeddedFile`: the `/Type` of an embedded file stream.
    public static let embeddedFile: PDFName = "EmbeddedFile"
    // §12.7 forms, §12.8 signatures
    /// `/AcroForm`: the catalog's interactive form dictionary (§12.7.3).
    public static let acroForm: PDFName = "AcroForm"
    /// `/Fields`: the interactive form's root fields (§12.7.3).
    public static let fields: PDFName = "Fields"
    /// `/FT`: a field's type: `/Btn`, `/Tx`, `/Ch` or `/Sig`, inheritable (§12.7.4.1).
    public static let ft: PDFName = "FT"
    /// `/Sig`: the signature field type (§12.7.5.5), and the `/Type` of a signature dictionary (§12.8.1).
    public static let sig: PDFName = "Sig"
    /// `/ByteRange`: the byte ranges a signature covers, pairs of offset and length (§12.8.1).
    public static let byteRange: PDFName = "ByteRange"
    /// `/DocTimeStamp`: the `/Type` of a document timestamp's signature dictionary (§12.8.5).
    public static let docTimeStamp: PDFName = "DocTimeStamp"
    // Names several modules read and write: forms, annotations, appearances, resources (§7.8.3, §8, §12.5, §12.7)
    /// `/AP`: an annotation's appearance dictionary: normal, rollover and down appearances (§12.5.5).
    public static let ap: PDFName = "AP"
    /// `/AS`: the appearance state chosen among an `/AP` subdictionary's states, e.g. a check box's (§12.5.5).
    public static let `as`: PDFName = "AS"
    /// `/BaseFont`: a font's PostScript name (§9.6.2).
    public static let baseFont: PDFName = "BaseFont"
    /// `/BBox`: a form XObject's or pattern cell's bounding box in its own space (§8.10.2, §8.7.3.3).
    public static let bBox: PDFName = "BBox"
    /// `/BC`: a widget's border colour in `/MK` (§12.5.6.19); a soft mask's backdrop colour (§11.6.5.2).
    public static let bc: PDFName = "BC"
    /// `/BG`: a widget's background colour in `/MK` (§12.5.6.19).
    public static let bg: PDFName = "BG"
    /// `/Border`: an annotation's border as an array: corner radii, width and dash, when it has no `/BS` (§12.5.2).
    public static let border: PDFName = "Border"
    /// `/C`: an annotation's colour: its background when closed, its title bar, its border or its line (§12.5.2).
    public static let c: PDFName = "C"
    /// `/BS`: an annotation's border style: width and dash (§12.5.4).
    public static let bs: PDFName = "BS"
    /// `/CA`: a widget's normal caption in `/MK` (§12.5.6.19); in a graphics state, the stroking alpha (§11.6.4.4).
    public static let ca: PDFName = "CA"
    /// `/ca`: in a graphics state, the non-stroking alpha (§11.6.4.4); ``ca`` is `/CA`, the stroking one.
    public static let nonStrokingAlpha: PDFName = "ca"
    /// `/ColorSpace`: an image's colour space (§8.9.5), and the colour space resources (§7.8.3).
    public static let colorSpace: PDFName = "ColorSpace"
    /// `/DA`: a variable-text field's default appearance: font, size and colour operators (§12.7.4.3).
    public static let da: PDFName = "DA"
    /// `/DR`: the interactive form's default resources, the fonts `/DA` names (§12.7.3).
    public static let dr: PDFName = "DR"
    /// `/Encoding`: a simple font's encoding: a name or a differences dictionary (§9.6.5).
    public static let encoding: PDFName = "Encoding"
    /// `/ExtGState`: the graphics state parameter dictionaries of a resource dictionary (§8.4.5).
    public static let extGState: PDFName = "ExtGState"
    /// `/Ff`: a field's flags: read-only, required, no export and the flags of each field type (§12.7.4.1).
    public static let ff: PDFName = "Ff"
    /// `/Font`: the font resources of a resource dictionary (§7.8.3); in a graphics state, the font and size (§8.4.5).
    public static let font: PDFName = "Font"
    /// `/InkList`: an ink annotation's paths, each an array of alternating x and y coordinates (§12.5.6.13).
    public static let inkList: PDFName = "InkList"
    /// `/Helv`: the resource name forms give Helvetica by convention in `/DR` and `/DA`.
    public static let helv: PDFName = "Helv"
    /// `/I`: a transparency group's isolated flag (§11.6.6); a widget's normal icon in `/MK` (§12.5.6.19).
    public static let i: PDFName = "I"
    /// `/M`: a modification date: an annotation's (§12.5.2), a signature's signing time as claimed (§12.8.1).
    public static let m: PDFName = "M"
    /// `/Matrix`: the matrix from a form XObject's, pattern's or shading's space to its parent's (§8.10.2).
    public static let matrix: PDFName = "Matrix"
    /// `/MaxLen`: the most characters a text field holds (§12.7.5.3).
    public static let maxLen: PDFName = "MaxLen"
    /// `/MK`: a widget's appearance characteristics: colours, caption, icon (§12.5.6.19).
    public static let mk: PDFName = "MK"
    /// `/NeedAppearances`: the form asks readers to make the fields' appearances (§12.7.3).
    public static let needAppearances: PDFName = "NeedAppearances"
    /// `/OC`: the optional content group or membership an object belongs to (§8.11.3).
    public static let oc: PDFName = "OC"
    /// `/OCProperties`: the catalog's optional content properties (§8.11.4).
    public static let ocProperties: PDFName = "OCProperties"
    /// `/Off`: the appearance state of a check box or radio button that is not selected (§12.7.5.2).
    public static let off: PDFName = "Off"
    /// `/Opt`: a choice field's options, or the export values of check boxes and radio buttons (§12.7.5).
    public static let opt: PDFName = "Opt"
    /// `/Producer`: the program that wrote the document, in the information dictionary (§14.3.3).
    public static let producer: PDFName = "Producer"
    /// `/Q`: a variable-text field's quadding: 0 left, 1 centred, 2 right (§12.7.4.3).
    public static let q: PDFName = "Q"
    /// `/Rect`: an annotation's rectangle on the page, in default user space (§12.5.2).
    public static let rect: PDFName = "Rect"
    /// `/Outlines`: the catalog's document outline (§12.3.3).
    public static let outlines: PDFName = "Outlines"
    /// `/Next`: the next outline item at the same level (§12.3.3).
    public static let next: PDFName = "Next"
    /// `/Dest`: the destination of an outline item or a link annotation (§12.3.2).
    public static let dest: PDFName = "Dest"
    /// `/Dests`: named destinations, the catalog's dictionary (PDF 1.1) or a name tree of `/Names` (§12.3.2.3).
    public static let dests: PDFName = "Dests"
    /// `/Names`: the catalog's name dictionary, and a name tree node's key and value pairs (§7.7.4, §7.9.6).
    public static let names: PDFName = "Names"
    /// `/Limits`: a name tree node's first and last keys (§7.9.6).
    public static let limits: PDFName = "Limits"
    /// `/A`: an action (§12.6), of an outline item or an annotation.
    public static let a: PDFName = "A"
    /// `/D`: a go-to action's destination (§12.6.4.2); optional content's default configuration (§8.11.4.2).
    public static let d: PDFName = "D"
    /// `/GoTo`: the go-to action (§12.6.4.2).
    public static let goTo: PDFName = "GoTo"
    /// `/S`: a subtype: a soft mask's or group's (§11.6.5.2, §8.10.3), a border style's (§12.5.4).
    public static let s: PDFName = "S"
    /// `/Shading`: the shading resources (§7.8.3), and a shading pattern's shading (§8.7.4.3).
    public static let shading: PDFName = "Shading"
    /// `/SMask`: an image's soft-mask image (§11.6.5.3), or a graphics state's soft mask (§11.6.5.2).
    public static let sMask: PDFName = "SMask"
    /// `/T`: a field's partial name (§12.7.4.1).
    public static let t: PDFName = "T"
    /// `/Title`: the document's title in the information dictionary (§14.3.3).
    public static let title: PDFName = "Title"
    /// `/TU`: a field's alternate name, shown to people and read by screen readers (§12.7.4.1).
    public static let tu: PDFName = "TU"
    /// `/XObject`: the external-object resources of a resource dictionary, and their `/Type` (§7.8.3, §8.8).
    public static let xObject: PDFName = "XObject"
    /// `/ZaDb`: the resource name forms give ZapfDingbats (check marks) by convention in `/DR`.
    public static let zaDb: PDFName = "ZaDb"
}
