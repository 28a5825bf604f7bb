import PDFCore

/// Lays text out in a box with a font's metrics: line breaking, alignment, and the largest size
/// that fits (form field auto size, signature appearance text).
public struct TextLayout: Sendable {
    /// How a line is placed between the box's edges; the raw values are a form field's `/Q` quadding (§12.7.4.3).
    public enum Alignment: Int, Sendable {
        /// Left-aligned (0), centred (1) or right-aligned (2).
        case left = 0, center = 1, right = 2
    }

    /// One laid-out line: its text, its width in points, and the offset of its baseline.
    public struct Line: Sendable, Equatable {
        /// The line's text.
        public var text: String
        /// The line's width in points at the layout's size.
        public var width: Double
        /// The line's left edge from the box's left edge, in points.
        public var x: Double
        /// The baseline from the box's bottom edge, in points.
        public var baseline: Double
    }

    /// The font whose metrics measure the text.
    public let font: any PDFFont
    /// The font size in points.
    public let size: Double

    /// A layout of text set in `font` at `size` points.
    public init(font: any PDFFont, size: Double) {
        self.font = font
        self.size = size
    }

    /// The width of `text` in points.
    public func width(of text: String) -> Double { font.width(of: text) * size / 1000 }

    /// The distance between baselines: the font's ascent minus descent, at least 1.15 em.
    public var lineHeight: Double { max(font.ascent - font.descent, 1150) * size / 1000 }

    /// Splits `text` into lines no wider than `maxWidth`: at explicit line breaks, then between
    /// words, and inside words longer than a line.
    public func wrap(_ text: String, maxWidth: Double) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        {
            var current = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if width(of: candidate) <= maxWidth || candidate.isEmpty {
                    current = candidate
                    continue
                }
                if !current.isEmpty { lines.append(current) }
                // A word wider than the line is broken between characters.
                current = ""
                for character in word {
                    let next = current + String(character)
                    if width(of: next) > maxWidth && !current.isEmpty {
                        lines.append(current)
                        current = String(character)
                    } else {
                        current = next
                    }
                }
            }
            lines.append(current)
        }
        return lines
    }

    /// Places `lines` in a box of `width` × `height` (inner area, padding already removed):
    /// from the top for several lines, or centred vertically for one line when `centerSingleLine`.
    public func place(
        _ lines: [String], width boxWidth: Double, height boxHeight: Double, alignment: Alignment,
        centerSingleLine: Bool = true
    ) -> [Line] {
        let ascent = font.ascent * size / 1000
        let descent = font.descent * size / 1000
        var result: [Line] = []
        for (index, text) in lines.enumerated() {
            let lineWidth = width(of: text)
            let x: Double
            switch alignment {
            case .left: x = 0
            case .center: x = (boxWidth - lineWidth) / 2
            case .right: x = boxWidth - lineWidth
            }
            let baseline: Double
            if lines.count == 1 && centerSingleLine {
                baseline = (boxHeight - (ascent - descent)) / 2 - descent
            } else {
                baseline = boxHeight - ascent - Double(index) * lineHeight
            }
            result.append(Line(text: text, width: lineWidth, x: x, baseline: baseline))
        }
        return result
    }

    /// The largest size, at most `maximum` and at least `minimum`, at which `text` fits a box:
    /// on one line when `multiline` is false, else wrapped.
    public static func fittingSize(
        _ text: String, font: any PDFFont, width: Double, height: Double, multiline: Bool,
        minimum: Double = 4, maximum: Double = 12
    ) -> Double {
        if !multiline {
            // As tall as the box allows with a line gap (viewers use about 1.35 em a line, as
            // pdf.js does), then smaller if the text is too wide.
            var size = min(maximum, height / 1.35)
            let textWidth = font.width(of: text) / 1000
            if textWidth > 0 { size = min(size, width / textWidth) }
            return max(minimum, size)
        }
        var size = maximum
        while size > minimum {
            let layout = TextLayout(font: font, size: size)
            let lines = layout.wrap(text, maxWidth: width)
            if Double(lines.count) * layout.lineHeight <= height { return size }
            size -= 0.5
        }
        return minimum
    }
}
