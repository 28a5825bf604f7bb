public import PDFCore

/// The CCITTFaxDecode filter (ISO 32000-2 §7.4.6): ITU-T T.4 Group 3 (one- and two-dimensional)
/// and T.6 Group 4 facsimile coding.
///
/// Damaged data: rows framed by EOLs (Group 3 with `/EndOfLine`) are resynchronised at the next
/// EOL and a damaged row repeats the row above, until more than `/DamagedRowsBeforeError`
/// consecutive rows are damaged (0: no limit). Otherwise decoding stops at the first row that
/// cannot be decoded. Whenever decoding stops early (damage, data ending before `/Rows`, RTC or
/// EOFB), the rows decoded so far are kept and, when `/Rows` is known, the missing rows are white;
/// an error is thrown only when not one row could be decoded.
public enum CCITTFax {
    /// The largest output produced, in bytes (`/Columns × /Rows` beyond it throws).
    public static let maxOutputSize = 1 << 28

    /// Decodes to packed rows of 1-bit pixels, MSB first, each row padded to a byte — the output of
    /// the PDF CCITTFaxDecode filter: with /BlackIs1 false (the default) black pixels are 0 bits.
    /// - Parameters:
    ///   - data: the encoded bytes (after any filter before CCITTFaxDecode).
    ///   - parameters: `/DecodeParms`.
    /// - Returns: `/Rows` rows of `(/Columns + 7) / 8` bytes when `/Rows` is given, else the rows found.
    /// - Throws: `.invalidArgument` for `/Columns` < 1 or `/Rows` < 0, `.limitExceeded` when the
    ///   output would exceed ``maxOutputSize``, `.decodeFailed` when no row can be decoded.
    public static func decode(_ data: [UInt8], parameters: CCITTParameters) throws(PDFError) -> [UInt8] {
        let columns = parameters.columns
        guard columns >= 1, parameters.rows >= 0 else {
            throw PDFError(.invalidArgument, "CCITTFaxDecode: /Columns \(columns) or /Rows \(parameters.rows) invalid")
        }
        guard columns <= maxOutputSize * 8 else {
            throw PDFError(.limitExceeded, "CCITTFaxDecode: /Columns \(columns) is too large")
        }
        let bytesPerRow = (columns + 7) / 8
        let maxRows = maxOutputSize / bytesPerRow
        guard parameters.rows <= maxRows else {
            throw PDFError(.limitExceeded, "CCITTFaxDecode: \(columns) × \(parameters.rows) pixels is too large")
        }
        var decoder = FaxDecoder(
            data: data, columns: columns, k: parameters.k, endOfLine: parameters.endOfLine,
            encodedByteAlign: parameters.encodedByteAlign,
            damagedRowsBeforeError: max(parameters.damagedRowsBeforeError, 0))
        var result = decoder.decode(rows: parameters.rows, maxRows: maxRows)
        if result.rowCount == 0 {
            switch result.ending {
            case .damaged(let message): throw PDFError(.decodeFailed, "CCITTFaxDecode: \(message)")
            case .limit: throw PDFError(.limitExceeded, "CCITTFaxDecode: output too large")
            case .complete, .endOfData: throw PDFError(.decodeFailed, "CCITTFaxDecode: no row in the data")
            }
        }
        if parameters.rows > result.rowCount {
            result.rows.append(contentsOf: repeatElement(0, count: (parameters.rows - result.rowCount) * bytesPerRow))
        }
        if !parameters.blackIs1 {
            for index in result.rows.indices { result.rows[index] = ~result.rows[index] }
        }
        return result.rows
    }
}
