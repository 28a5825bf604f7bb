import PDFCore

/// A font's map from Unicode scalars to glyph ids, read from its best Unicode `cmap` subtable
/// (OpenType `cmap` table): format 12 for platform 3 encoding 10 or platform 0, else format 4
/// for platform 3 encoding 1 or platform 0.
///
/// The subtable is turned into sorted runs of consecutive characters with consecutive glyphs, so a
/// lookup is a binary search and memory stays proportional to the subtable, whatever ranges a
/// hostile font claims.
package struct CharacterMap: Sendable {
    /// Characters `first…last` map to glyphs `glyph`, `glyph + 1`, …
    struct Run: Sendable {
        var first: UInt32
        var last: UInt32
        var glyph: UInt32
    }

    private let runs: [Run]
    private let glyphCount: Int

    /// The glyph for `scalar`, or 0 (`.notdef`) when the font does not map it.
    package func glyph(for scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].first <= value { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        let run = runs[low - 1]
        guard value <= run.last else { return 0 }
        let glyph = Int(run.glyph) + Int(value - run.first)
        return glyph < glyphCount ? glyph : 0
    }

    /// Calls `body` with each character of `range` that has a glyph other than `.notdef`, and the
    /// glyph, in character order: a walk over the map's runs, not a lookup per character.
    package func forEachMapping(in range: ClosedRange<UInt32>, _ body: (Unicode.Scalar, Int) -> Void) {
        for run in runs {
            let first = max(run.first, range.lowerBound)
            let last = min(run.last, range.upperBound)
            guard first <= last else { continue }
            for value in first...last {
                let glyph = Int(run.glyph) + Int(value - run.first)
                guard glyph > 0, glyph < glyphCount, let scalar = Unicode.Scalar(value) else { continue }
                body(scalar, glyph)
            }
        }
    }

    /// A map with no characters.
    init() {
        runs = []
        glyphCount = 0
    }

    /// True when no character maps to a glyph.
    package var isEmpty: Bool { runs.isEmpty }

    /// Reads the best Unicode subtable of the `cmap` table at `range`; a font without one gets an
    /// empty map.
    /// - Throws: `.decodeFailed` when the chosen subtable is truncated or inconsistent.
    init(_ bytes: [UInt8], _ range: Range<Int>, glyphs: Int) throws(PDFError) {
        glyphCount = glyphs
        var cursor = FontDataCursor(bytes, range: range)
        guard cursor.skip(2), let count = cursor.readUInt16() else {
            throw TrueTypeFile.damaged("the 'cmap' table is truncated")
        }
        // (preference, absolute offset, format); higher preference first.
        var candidates: [(score: Int, offset: Int, format: UInt16)] = []
        for _ in 0..<Int(count) {
            guard let platform = cursor.readUInt16(), let encoding = cursor.readUInt16(),
                let offset = cursor.readUInt32()
            else { throw TrueTypeFile.damaged("the 'cmap' encoding records are truncated") }
            let start = range.lowerBound + Int(offset)
            guard let format = FontDataCursor(bytes, from: start, upTo: range.upperBound).peekUInt16() else { continue }
            let score: Int
            switch (platform, encoding, format) {
            case (3, 10, 12): score = 6
            case (0, _, 12): score = 5
            case (3, 1, 4): score = 4
            case (0, _, 4): score = 3
            default: continue
            }
            candidates.append((score, start, format))
        }
        guard let best = candidates.max(by: { $0.score < $1.score }) else {
            runs = []
            return
        }
        let subtable = best.offset..<max(best.offset, range.upperBound)
        var result =
            best.format == 12
            ? try Self.format12(bytes, subtable) : try Self.format4(bytes, subtable)
        result.sort { $0.first < $1.first }
        runs = result
    }

    /// Format 12 (segmented coverage): groups of characters mapped to consecutive glyphs.
    private static func format12(_ bytes: [UInt8], _ range: Range<Int>) throws(PDFError) -> [Run] {
        var cursor = FontDataCursor(bytes, range: range)
        guard cursor.skip(12), let count = cursor.readUInt32() else {
            throw TrueTypeFile.damaged("the 'cmap' format 12 header is truncated")
        }
        guard cursor.has(12 * Int(count)) else {
            throw TrueTypeFile.damaged("the 'cmap' format 12 groups are truncated")
        }
        var runs: [Run] = []
        runs.reserveCapacity(Int(count))
        for _ in 0..<Int(count) {
            guard let first = cursor.readUInt32(), let last = cursor.readUInt32(), let glyph = cursor.readUInt32()
            else { break }
            guard first <= last, first <= 0x10FFFF else { continue }
            runs.append(Run(first: first, last: min(last, 0x10FFFF), glyph: glyph))
        }
        return runs
    }

    /// Format 4 (segment mapping to delta values) for the Basic Multilingual Plane.
    private static func format4(_ bytes: [UInt8], _ range: Range<Int>) throws(PDFError) -> [Run] {
        let cursor = FontDataCursor(bytes, range: range)
        guard let doubledCount = cursor.peekUInt16(at: 6) else {
            throw TrueTypeFile.damaged("the 'cmap' format 4 header is truncated")
        }
        let segments = Int(doubledCount) / 2
        let ends = 14
        let starts = ends + 2 * segments + 2
        let deltas = starts + 2 * segments
        let rangeOffsets = deltas + 2 * segments
        guard cursor.has(2 * segments, at: rangeOffsets) else {
            throw TrueTypeFile.damaged("the 'cmap' format 4 segments are truncated")
        }
        var runs: [Run] = []
        // Characters mapped through glyphIdArray, across all segments; overlapping hostile segments
        // could otherwise ask for billions of lookups.
        var budget = 1 << 18
        for segment in 0..<segments {
            guard let end = cursor.peekUInt16(at: ends + 2 * segment),
                let start = cursor.peekUInt16(at: starts + 2 * segment),
                let delta = cursor.peekUInt16(at: deltas + 2 * segment),
                let rangeOffset = cursor.peekUInt16(at: rangeOffsets + 2 * segment)
            else { break }
            guard start <= end, !(start == 0xFFFF && end == 0xFFFF) else { continue }
            if rangeOffset == 0 {
                // glyph = (character + delta) mod 65536: split where the sum wraps.
                let firstGlyph = (Int(start) + Int(delta)) & 0xFFFF
                let beforeWrap = 0x10000 - firstGlyph
                let length = Int(end) - Int(start) + 1
                if length <= beforeWrap {
                    runs.append(Run(first: UInt32(start), last: UInt32(end), glyph: UInt32(firstGlyph)))
                } else {
                    let split = Int(start) + beforeWrap
                    runs.append(Run(first: UInt32(start), last: UInt32(split - 1), glyph: UInt32(firstGlyph)))
                    runs.append(Run(first: UInt32(split), last: UInt32(end), glyph: 0))
                }
                continue
            }
            let length = Int(end) - Int(start) + 1
            budget -= length
            guard budget >= 0 else { throw TrueTypeFile.damaged("the 'cmap' format 4 segments overlap too much") }
            // idRangeOffset counts bytes from its own position to the glyph ids of the segment.
            let base = rangeOffsets + 2 * segment + Int(rangeOffset)
            for index in 0..<length {
                let character = UInt32(Int(start) + index)
                guard let stored = cursor.peekUInt16(at: base + 2 * index), stored != 0 else { continue }
                let glyph = UInt32((Int(stored) + Int(delta)) & 0xFFFF)
                if let previous = runs.last, previous.last + 1 == character,
                    previous.glyph + (previous.last - previous.first) + 1 == glyph
                {
                    runs[runs.count - 1].last = character
                } else {
                    runs.append(Run(first: character, last: character, glyph: glyph))
                }
            }
        }
        return runs
    }
}
