import PDFCore
import Testing

@testable import PDFAuthoring
@testable import PDFFonts

@Suite("Text layout with font metrics")
struct TextLayoutTests {
    let helvetica = StandardFont(.helvetica)

    @Test("widths come from the font's metrics at the size")
    func widths() {
        let layout = TextLayout(font: helvetica, size: 10)
        // Helvetica: A 667, space 278 (Adobe's AFM).
        #expect(abs(layout.width(of: "A A") - Double(667 + 278 + 667) * 10 / 1000) < 1e-9)
    }

    @Test("wrapping breaks between words, at line breaks, and inside words longer than a line")
    func wrapping() {
        let layout = TextLayout(font: helvetica, size: 10)
        #expect(layout.wrap("one two three", maxWidth: layout.width(of: "one two") + 0.1) == ["one two", "three"])
        #expect(layout.wrap("a\nb", maxWidth: 100) == ["a", "b"])
        let courier = TextLayout(font: StandardFont(.courier), size: 10)
        let long = courier.wrap("abcdefghij", maxWidth: courier.width(of: "abcd") + 0.1)
        #expect(long == ["abcd", "efgh", "ij"])
        for line in layout.wrap("the quick brown fox jumps over the lazy dog", maxWidth: 60) {
            #expect(layout.width(of: line) <= 60)
        }
    }

    @Test("alignment places lines left, centred or right, and one line is centred vertically")
    func alignment() {
        let layout = TextLayout(font: helvetica, size: 10)
        let width = layout.width(of: "abc")
        #expect(layout.place(["abc"], width: 100, height: 20, alignment: .left)[0].x == 0)
        #expect(abs(layout.place(["abc"], width: 100, height: 20, alignment: .center)[0].x - (100 - width) / 2) < 1e-9)
        #expect(abs(layout.place(["abc"], width: 100, height: 20, alignment: .right)[0].x - (100 - width)) < 1e-9)
        let line = layout.place(["abc"], width: 100, height: 20, alignment: .left)[0]
        // The ascent-to-descent band sits in the middle of the box.
        let top = line.baseline + helvetica.ascent / 100
        let bottom = line.baseline + helvetica.descent / 100
        #expect(abs((20 - top) - bottom) < 1e-9)
        let lines = layout.place(["a", "b"], width: 100, height: 50, alignment: .left)
        #expect(abs(lines[0].baseline - lines[1].baseline - layout.lineHeight) < 1e-9)
    }

    @Test("auto size fits one line to the box, and shrinks wrapped text until it fits")
    func autoSize() {
        let single = TextLayout.fittingSize(
            "Hi", font: helvetica, width: 500, height: 27, multiline: false, maximum: 1000)
        #expect(abs(single - 20) < 1e-9)
        let narrow = TextLayout.fittingSize(
            "A rather long line", font: helvetica, width: 50, height: 27, multiline: false, maximum: 1000)
        #expect(TextLayout(font: helvetica, size: narrow).width(of: "A rather long line") <= 50 + 1e-9)
        let text = String(repeating: "word ", count: 40)
        let size = TextLayout.fittingSize(text, font: helvetica, width: 100, height: 60, multiline: true)
        let layout = TextLayout(font: helvetica, size: size)
        #expect(Double(layout.wrap(text, maxWidth: 100).count) * layout.lineHeight <= 60)
        #expect(size < 12)
    }
}
