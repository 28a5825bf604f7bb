import PDFCore

/// The glyph metrics of a CIDFont (ISO 32000-2 §9.7.4.3): `/DW` and `/W` for horizontal widths,
/// `/DW2` and `/W2` for vertical displacements and origins, in 1/1000 em.
struct CIDMetrics: Sendable {
    /// CIDs `first…last` have `values` (one per CID, or one value for all when `values.count == 1`
    /// and `isUniform`).
    struct Run: Sendable {
        var first: UInt32
        var last: UInt32
        var values: [Double]
        var isUniform: Bool
    }

    var defaultWidth: Double = 1000
    var widths: [Run] = []
    /// `/DW2`: (v_y, w1y) defaults.
    var defaultVertical: (originY: Double, advance: Double) = (880, -1000)
    /// Triples (w1y, v_x, v_y) flattened: `values` holds 3 numbers per CID.
    var vertical: [Run] = []

    /// At most this many CIDs are expanded from `/W` arrays.
    static let maxEntries = 1 << 20

    init() {}

    init(_ font: PDFDictionary, document: PDFDocument, warnings: inout [String]) {
        if let value = document.resolve(font, "DW")?.numberValue, value.isFinite { defaultWidth = value }
        widths = Self.runs(document.resolve(font, "W"), stride: 1, document: document, warnings: &warnings)
        if let items = document.resolve(font, "DW2")?.arrayValue, items.count == 2,
            let y = document.resolve(items[0]).numberValue, let advance = document.resolve(items[1]).numberValue,
            y.isFinite, advance.isFinite
        {
            defaultVertical = (y, advance)
        }
        vertical = Self.runs(document.resolve(font, "W2"), stride: 3, document: document, warnings: &warnings)
    }

    /// The horizontal width of `cid`.
    func width(of cid: UInt32) -> Double {
        guard let (run, offset) = Self.find(cid, in: widths) else { return defaultWidth }
        return run.isUniform ? run.values[0] : run.values[offset]
    }

    /// (w1y, v_x, v_y) of `cid`; v_x defaults to half the horizontal width.
    func vertical(of cid: UInt32) -> (advance: Double, originX: Double, originY: Double) {
        guard let (run, offset) = Self.find(cid, in: vertical) else {
            return (defaultVertical.advance, width(of: cid) / 2, defaultVertical.originY)
        }
        let base = run.isUniform ? 0 : offset * 3
        return (run.values[base], run.values[base + 1], run.values[base + 2])
    }

    /// The run with the greatest first CID at or below `cid` (the later one among equal firsts),
    /// when it covers `cid`. Where runs overlap, a CID inside an earlier, longer run but past a
    /// later-starting short one gets the default, as MuPDF's and poppler's binary searches give it
    /// (`/W [32 [719] 0 180 719]` leaves CID 42 at `/DW` in both).
    private static func find(_ cid: UInt32, in runs: [Run]) -> (Run, Int)? {
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].first <= cid { low = middle + 1 } else { high = middle }
        }
        guard low > 0, cid <= runs[low - 1].last else { return nil }
        return (runs[low - 1], Int(cid - runs[low - 1].first))
    }

    /// Reads a `/W` (stride 1) or `/W2` (stride 3) array: `c [v …]` or `c_first c_last v…`.
    private static func runs(_ object: PDFObject?, stride: Int, document: PDFDocument, warnings: inout [String])
        -> [Run]
    {
        guard let object else { return [] }
        guard let items = object.arrayValue else {
            warnings.append("/W\(stride == 3 ? "2" : "") is not an array")
            return []
        }
        var runs: [Run] = []
        var index = 0
        var expanded = 0
        var damaged = false
        func number(_ item: PDFObject) -> Double? {
            guard let value = document.resolve(item).numberValue, value.isFinite else { return nil }
            return value
        }
        while index < items.count {
            guard let first = number(items[index]), first >= 0, first <= Double(UInt32.max) else {
                damaged = true
                index += 1
                continue
            }
            guard index + 1 < items.count else {
                damaged = true
                break
            }
            if let list = document.resolve(items[index + 1]).arrayValue {
                let values = list.compactMap(number)
                let count = values.count / stride
                expanded += count
                if count > 0, expanded <= maxEntries {
                    runs.append(
                        Run(
                            first: UInt32(first), last: UInt32(first) + UInt32(count - 1),
                            values: Array(values.prefix(count * stride)), isUniform: false))
                }
                if values.count != list.count || values.count % stride != 0 { damaged = true }
                index += 2
            } else {
                guard index + 1 + stride <= items.count,
                    let last = number(items[index + 1]), last >= first, last <= Double(UInt32.max)
                else {
                    damaged = true
                    index += 2
                    continue
                }
                let values = items[(index + 2)..<(index + 2 + stride)].compactMap(number)
                if values.count == stride {
                    runs.append(Run(first: UInt32(first), last: UInt32(last), values: values, isUniform: true))
                } else {
                    damaged = true
                }
                index += 2 + stride
            }
        }
        if damaged { warnings.append("/W\(stride == 3 ? "2" : "") has malformed entries; they are skipped") }
        return runs.enumerated().sorted { ($0.element.first, $0.offset) < ($1.element.first, $1.offset) }.map(\.element)
    }
}
