import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// A glyph as `mutool trace` prints it: `<g unicode="A" glyph="A" x=".." y=".." adv=".667"/>`.
///
/// `adv` is the advance of the glyph in the font program mutool draws with (for substituted
/// fonts, scaled to the PDF's widths), not necessarily what the PDF's widths say; the pen
/// displacement to the next glyph of the same span is: it is what mutool positions glyphs by.
struct TraceGlyph {
    var unicode: String
    var glyph: String?
    var advance: Double?
    /// The span's font name.
    var font: String
    var x = 0.0
    var y = 0.0
    /// The span this glyph is in (spans break where the font or the text rendering matrix change).
    var span = 0
    /// The length of one em of the span's text rendering matrix horizontally (its first row).
    var emLength = 1.0
    var isVertical = false

    /// The distance to `next` in ems of the font size, when `next` follows in the same span.
    func displacement(to next: TraceGlyph) -> Double? {
        guard next.span == span, emLength > 0, !isVertical else { return nil }
        return ((next.x - x) * (next.x - x) + (next.y - y) * (next.y - y)).squareRoot() / emLength
    }
}

/// Reads the glyphs of `mutool trace` output in order. Extra characters of a multi-character
/// mapping (items without a glyph) are appended to the glyph before them.
enum MutoolTrace {
    static func glyphs(_ path: String, page: Int, password: String? = nil) throws -> [TraceGlyph] {
        var arguments = ["trace"]
        if let password { arguments += ["-p", password] }
        let result = try Oracle.run("mutool", arguments + [path, String(page)], timeout: 120)
        return parse(result.output)
    }

    static func parse(_ output: String) -> [TraceGlyph] {
        var glyphs: [TraceGlyph] = []
        var font = ""
        var span = 0
        var emLength = 1.0
        var isVertical = false
        for line in output.split(separator: "\n") {
            let text = line.drop(while: { $0 == " " })
            if text.hasPrefix("<span ") {
                font = attribute("font", in: text) ?? ""
                span += 1
                let trm = (attribute("trm", in: text) ?? "").split(separator: " ").compactMap { Double($0) }
                emLength = trm.count == 4 ? (trm[0] * trm[0] + trm[1] * trm[1]).squareRoot() : 0
                isVertical = attribute("wmode", in: text) == "1"
            } else if text.hasPrefix("<g ") {
                let unicode = unescape(attribute("unicode", in: text) ?? "")
                let glyph = attribute("glyph", in: text)
                let advance = attribute("adv", in: text).flatMap(Double.init)
                if glyph == nil, !glyphs.isEmpty {
                    glyphs[glyphs.count - 1].unicode += unicode
                } else {
                    glyphs.append(
                        TraceGlyph(
                            unicode: unicode, glyph: glyph, advance: advance, font: font,
                            x: attribute("x", in: text).flatMap(Double.init) ?? 0,
                            y: attribute("y", in: text).flatMap(Double.init) ?? 0, span: span, emLength: emLength,
                            isVertical: isVertical))
                }
            }
        }
        return glyphs
    }

    private static func attribute(_ name: String, in text: Substring) -> String? {
        guard let start = text.range(of: " \(name)=\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    private static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = text
        for (entity, value) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'")] {
            result = result.replacingOccurrences(of: entity, with: value)
        }
        // Numeric references (&#xNN;) that mutool writes for control characters.
        while let start = result.range(of: "&#x"), let end = result[start.upperBound...].firstIndex(of: ";") {
            let hex = result[start.upperBound..<end]
            let scalar = UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map(String.init) ?? "\u{FFFD}"
            result.replaceSubrange(start.lowerBound...end, with: scalar)
        }
        return result.replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// How well our glyphs agree with mutool's.
struct Agreement {
    var glyphs = 0
    /// Glyphs paired with one of mutool's.
    var paired = 0
    /// Paired glyphs where mutool knows the text (not U+FFFD/U+FFFF).
    var unicodeKnown = 0
    var unicodeMatches = 0
    var advanceCompared = 0
    var advanceMatches = 0
    /// Paired glyphs mutool has no text for and we do.
    var oursOnly = 0
    /// A few text mismatches, for the report.
    var examples: [String] = []

    mutating func add(_ other: Agreement) {
        oursOnly += other.oursOnly
        glyphs += other.glyphs
        paired += other.paired
        unicodeKnown += other.unicodeKnown
        unicodeMatches += other.unicodeMatches
        advanceCompared += other.advanceCompared
        advanceMatches += other.advanceMatches
    }

    /// Share of glyphs (unpaired ones count as failures) whose text matches, among those mutool knows.
    var unicodeShare: Double {
        let unknownPaired = paired - unicodeKnown
        let denominator = glyphs - unknownPaired
        return denominator == 0 ? 1 : Double(unicodeMatches) / Double(denominator)
    }

    /// Share of the compared displacements that agree within 0.001 em.
    var advanceShare: Double {
        advanceCompared == 0 ? 1 : Double(advanceMatches) / Double(advanceCompared)
    }
}

enum GlyphAlignment {
    /// Text compared with compatibility mappings applied (mutool writes U+FB01 where the glyph list
    /// gives "fi" for `f_i`).
    static func key(_ text: String?) -> String {
        // mutool writes the CID or code as the text of glyphs it has no Unicode for: control
        // characters are never text, so they count as unknown too.
        guard let text, !text.isEmpty, text != "\u{FFFD}", text != "\u{FFFF}",
            !text.unicodeScalars.allSatisfy({ $0.value < 0x20 })
        else { return "\u{FFFF}" }
        return text.precomposedStringWithCompatibilityMapping
    }

    /// Pairs our glyphs with mutool's in order: equal texts pair; where they differ, the shortest
    /// skip on either side after which three texts agree again re-synchronises (mutool's extra
    /// glyphs — annotations, text both filled and clipped — are skipped), else the two pair as a
    /// mismatch.
    /// - Parameter byText: false to pair glyphs in order without looking at their text.
    static func compare(_ ours: [ShownGlyph], _ theirs: [TraceGlyph], byText: Bool = true) -> Agreement {
        var result = Agreement()
        result.glyphs = ours.count
        let mine = ours.map { key($0.glyph.unicode) }
        let oracle = theirs.map { key($0.unicode) }
        var i = 0
        var j = 0
        // Text mutool does not know matches anything.
        func same(_ a: Int, _ b: Int) -> Bool {
            !byText || mine[a] == oracle[b] || oracle[b] == "\u{FFFF}"
        }
        func agrees(_ a: Int, _ b: Int, run: Int) -> Bool {
            for k in 0..<run {
                guard a + k < mine.count, b + k < oracle.count else { return k > 0 }
                if !same(a + k, b + k) { return false }
            }
            return true
        }
        func pair(_ a: Int, _ b: Int) {
            result.paired += 1
            let known = oracle[b] != "\u{FFFF}"
            if known {
                result.unicodeKnown += 1
                if mine[a] == oracle[b] {
                    result.unicodeMatches += 1
                } else if result.examples.count < 5 {
                    result.examples.append(
                        "\(ours[a].font.baseFont) code \(ours[a].glyph.code): \(mine[a].debugDescription) vs \(oracle[b].debugDescription)"
                    )
                }
            } else if mine[a] != "\u{FFFF}" {
                result.oursOnly += 1
            }
            // The pen displacement to the next glyph, where both sides know it (ours within one
            // operator, mutool's within one span).
            if let predicted = ours[a].displacement, b + 1 < theirs.count,
                let measured = theirs[b].displacement(to: theirs[b + 1])
            {
                result.advanceCompared += 1
                if abs(predicted - measured) < 0.001 { result.advanceMatches += 1 }
            }
        }
        while i < mine.count, j < oracle.count {
            if same(i, j) {
                pair(i, j)
                i += 1
                j += 1
                continue
            }
            var resync: (Int, Int)? = nil
            search: for total in 1...400 {
                for skipOracle in stride(from: total, through: 0, by: -1) {
                    let skipMine = total - skipOracle
                    guard i + skipMine < mine.count, j + skipOracle < oracle.count else { continue }
                    if agrees(i + skipMine, j + skipOracle, run: 3) {
                        resync = (skipMine, skipOracle)
                        break search
                    }
                }
            }
            guard let (skipMine, skipOracle) = resync else {
                pair(i, j)
                i += 1
                j += 1
                continue
            }
            // Pair what was skipped on both sides as mismatches, one to one.
            for k in 0..<min(skipMine, skipOracle) { pair(i + k, j + k) }
            i += skipMine
            j += skipOracle
        }
        return result
    }
}

@Suite("Font oracles")
struct FontsOracleTests {
    @Test("mutool trace glyphs are read with their spans, entities and multi-character texts")
    func traceParsing() {
        let output = """
            <span font="Times-Roman" wmode="0" bidi="0" trm="10 0 0 10">
                <g unicode="&lt;" glyph="less" x="10" y="20" adv=".564"/>
                <g unicode="f" glyph="f_i" x="15.64" y="20" adv=".556"/>
                <g unicode="i" x="15.64" y="20"/>
                <g unicode="&#x1;" glyph="g1" x="21.2" y="20" adv=".5"/>
            </span>
            <span font="Times-Roman" wmode="1" bidi="0" trm="0 12 -12 0">
                <g unicode="A" glyph="A" x="0" y="0" adv="1"/>
            </span>
            """
        let glyphs = MutoolTrace.parse(output)
        #expect(glyphs.map(\.unicode) == ["<", "fi", "\u{1}", "A"])
        #expect(glyphs.map(\.span) == [1, 1, 1, 2])
        #expect(glyphs[0].displacement(to: glyphs[1]).map { abs($0 - 0.564) < 1e-9 } == true)
        #expect(glyphs[1].displacement(to: glyphs[2]).map { abs($0 - 0.556) < 1e-9 } == true)
        #expect(glyphs[2].displacement(to: glyphs[3]) == nil)  // another span
        #expect(glyphs[3].isVertical)
        // Control characters and U+FFFD are no text.
        #expect(GlyphAlignment.key("\u{1}") == GlyphAlignment.key(nil))
        #expect(GlyphAlignment.key("\u{FB01}") == "fi")
    }
}
