public import PDFCore

/// The `/DecodeParms` of a CCITTFaxDecode stream (ISO 32000-2 §7.4.6, Table 11), with its defaults.
public struct CCITTParameters: Sendable {
    /// `/K`: < 0 Group 4 (pure two-dimensional), 0 Group 3 one-dimensional, > 0 Group 3 mixed 1-D/2-D.
    public var k = 0
    /// `/EndOfLine`: whether end-of-line bit patterns are required before each row.
    public var endOfLine = false
    /// `/EncodedByteAlign`: whether each encoded row (for Group 3 with EOLs, each EOL) ends on a byte boundary.
    public var encodedByteAlign = false
    /// `/Columns`: the width of the image in pixels.
    public var columns = 1728
    /// `/Rows`: the height in pixels; 0 means unknown (decode until the data ends).
    public var rows = 0
    /// `/EndOfBlock`: whether the data ends with an end-of-block pattern (RTC or EOFB).
    public var endOfBlock = true
    /// `/BlackIs1`: whether black pixels are 1 bits in the output (false: black is 0, as DeviceGray).
    public var blackIs1 = false
    /// `/DamagedRowsBeforeError`: consecutive damaged rows tolerated when rows are framed by EOLs.
    public var damagedRowsBeforeError = 0

    /// The defaults of Table 11.
    public init() {}

    /// Reads `/DecodeParms` (entries may be indirect); missing or mistyped entries keep their defaults.
    /// - Parameters:
    ///   - parameters: the filter's parameter dictionary, or nil for the defaults.
    ///   - document: resolves indirect values.
    public init(_ parameters: PDFDictionary?, document: PDFDocument) {
        self.init()
        guard let parameters else { return }
        func value(_ key: PDFName) -> PDFObject? {
            guard let object = parameters[key] else { return nil }
            return document.resolve(object)
        }
        if let k = value("K")?.intValue { self.k = k }
        if let flag = value("EndOfLine")?.boolValue { endOfLine = flag }
        if let flag = value("EncodedByteAlign")?.boolValue { encodedByteAlign = flag }
        if let columns = value(.columns)?.intValue { self.columns = columns }
        if let rows = value("Rows")?.intValue { self.rows = rows }
        if let flag = value("EndOfBlock")?.boolValue { endOfBlock = flag }
        if let flag = value("BlackIs1")?.boolValue { blackIs1 = flag }
        if let count = value("DamagedRowsBeforeError")?.intValue { damagedRowsBeforeError = count }
    }
}
