import Foundation
import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// Fills, strokes, clips, alpha and blend modes against MuPDF (`mutool draw`).
@Suite("Paths against MuPDF")
struct PathRenderingTests {
    @Test("Non-zero and even-odd fills, curves included, match MuPDF")
    func fills() throws {
        let square = TestPath.rectangle(15, 110, 70, 70)
        let starNonZero = TestPath.star(60, 60, 45)
        let starEvenOdd = TestPath.star(145, 60, 45)
        let circle = TestPath.circle(145, 145, 35)
        let list = DisplayList(items: [
            .fill(square.path, .nonZero, .color(RGB(1, 0, 0)), ctm: .identity, state: DrawState()),
            .fill(starNonZero.path, .nonZero, .color(RGB(0, 0, 1)), ctm: .identity, state: DrawState()),
            .fill(starEvenOdd.path, .evenOdd, .color(RGB(0, 0.6, 0)), ctm: .identity, state: DrawState()),
            .fill(circle.path, .nonZero, .color(RGB(0.9, 0.6, 0.1)), ctm: .identity, state: DrawState()),
        ])
        let page = HandPage(
            content: """
                1 0 0 rg \(square.operators) f
                0 0 1 rg \(starNonZero.operators) f
                0 0.6 0 rg \(starEvenOdd.operators) f*
                0.9 0.6 0.1 rg \(circle.operators) f
                """)
        try Fidelity.expectMatch(page.rendered(list), label: "fills")
        try Fidelity.expectMatch(page.rendered(list, dpi: 150), label: "fills at 150 dpi")
    }

    @Test("Strokes with every cap, join, dashes, hairlines and a scaled CTM match MuPDF")
    func strokes() throws {
        var items: [DisplayItem] = []
        var content = ""
        let caps: [StrokeStyle.Cap] = [.butt, .round, .square]
        for (index, cap) in caps.enumerated() {
            var line = TestPath()
            line.move(20, 180 - Double(index) * 20)
            line.line(90, 180 - Double(index) * 20)
            var style = StrokeStyle()
            style.width = 10
            style.cap = cap
            items.append(.stroke(line.path, style, .color(RGB(0, 0, 0.8)), ctm: .identity, state: DrawState()))
            content += "\(cap.rawValue) J 10 w 0 0 0.8 RG \(line.operators) S\n"
        }
        let joins: [StrokeStyle.Join] = [.miter, .round, .bevel]
        for (index, join) in joins.enumerated() {
            var zigzag = TestPath()
            let x = 110 + Double(index) * 30
            zigzag.move(x, 120)
            zigzag.line(x + 10, 180)
            zigzag.line(x + 20, 120)
            var style = StrokeStyle()
            style.width = 6
            style.join = join
            items.append(.stroke(zigzag.path, style, .color(RGB(0.7, 0, 0)), ctm: .identity, state: DrawState()))
            content += "0 J \(join.rawValue) j 6 w 0.7 0 0 RG \(zigzag.operators) S\n"
        }
        // A sharp angle beyond the miter limit becomes a bevel.
        var sharp = TestPath()
        sharp.move(20, 100)
        sharp.line(60, 106)
        sharp.line(20, 112)
        var sharpStyle = StrokeStyle()
        sharpStyle.width = 4
        sharpStyle.miterLimit = 2
        items.append(.stroke(sharp.path, sharpStyle, .color(.black), ctm: .identity, state: DrawState()))
        content += "0 j 4 w 2 M 0 0 0 RG \(sharp.operators) S 10 M\n"
        // Dashes with a phase, and a dashed closed rectangle.
        var dashed = TestPath()
        dashed.move(80, 100)
        dashed.line(190, 100)
        var dashStyle = StrokeStyle()
        dashStyle.width = 4
        dashStyle.dash = [12, 4, 2, 4]
        dashStyle.dashPhase = 5
        items.append(.stroke(dashed.path, dashStyle, .color(RGB(0, 0.5, 0)), ctm: .identity, state: DrawState()))
        content += "[12 4 2 4] 5 d 4 w 0 0.5 0 RG \(dashed.operators) S\n"
        let box = TestPath.rectangle(110, 20, 70, 60)
        var boxStyle = StrokeStyle()
        boxStyle.width = 3
        boxStyle.dash = [9, 3]
        items.append(.stroke(box.path, boxStyle, .color(RGB(0.5, 0, 0.5)), ctm: .identity, state: DrawState()))
        content += "[9 3] 0 d 3 w 0.5 0 0.5 RG \(box.operators) S [] 0 d\n"
        // Zero width and very thin lines: one device pixel.
        for (index, width) in [0.0, 0.05].enumerated() {
            var hairline = TestPath()
            hairline.move(20, 80 - Double(index) * 8)
            hairline.line(100, 70 - Double(index) * 8)
            var style = StrokeStyle()
            style.width = width
            items.append(.stroke(hairline.path, style, .color(.black), ctm: .identity, state: DrawState()))
            content += "\(width) w 0 0 0 RG \(hairline.operators) S\n"
        }
        // Under a non-uniform CTM the pen is an ellipse.
        let ctm = PDFMatrix(2, 0, 0, 0.5, 10, 10)
        let circle = TestPath.circle(20, 60, 15)
        var ellipseStyle = StrokeStyle()
        ellipseStyle.width = 8
        items.append(.stroke(circle.path, ellipseStyle, .color(RGB(0.2, 0.4, 1)), ctm: ctm, state: DrawState()))
        content += "q 2 0 0 0.5 10 10 cm 8 w 0.2 0.4 1 RG \(circle.operators) S Q\n"
        try Fidelity.expectMatch(HandPage(content: content).rendered(DisplayList(items: items)), label: "strokes")
        try Fidelity.expectMatch(
            HandPage(content: content).rendered(DisplayList(items: items), dpi: 200), label: "strokes at 200 dpi")
    }

    @Test("Nested clips, even-odd clips and restores match MuPDF")
    func clips() throws {
        let outer = TestPath.rectangle(20, 20, 160, 120)
        let star = TestPath.star(100, 90, 80)
        let fillAll = TestPath.rectangle(0, 0, 200, 200)
        let stripe = TestPath.rectangle(0, 150, 200, 30)
        let list = DisplayList(items: [
            .save,
            .clip(outer.path, .nonZero, ctm: .identity),
            .save,
            .clip(star.path, .evenOdd, ctm: .identity),
            .fill(fillAll.path, .nonZero, .color(RGB(0, 0.3, 0.9)), ctm: .identity, state: DrawState()),
            .restore,
            .fill(stripe.path, .nonZero, .color(RGB(0.9, 0.1, 0.1)), ctm: .identity, state: DrawState()),
            .restore,
            .fill(
                TestPath.rectangle(0, 185, 200, 10).path, .nonZero, .color(.black), ctm: .identity, state: DrawState()),
        ])
        let page = HandPage(
            content: """
                q \(outer.operators) W n
                q \(star.operators) W* n 0 0.3 0.9 rg \(fillAll.operators) f Q
                0.9 0.1 0.1 rg \(stripe.operators) f
                Q 0 0 0 rg 0 185 200 10 re f
                """)
        try Fidelity.expectMatch(page.rendered(list), label: "clips")
    }

    @Test("Constant alpha and a blend mode match MuPDF")
    func alphaAndBlend() throws {
        let first = TestPath.rectangle(20, 20, 100, 100)
        let second = TestPath.circle(120, 120, 60)
        let third = TestPath.rectangle(40, 130, 140, 50)
        var thick = StrokeStyle()
        thick.width = 12
        let list = DisplayList(items: [
            .fill(first.path, .nonZero, .color(RGB(1, 0.8, 0)), ctm: .identity, state: DrawState()),
            .fill(second.path, .nonZero, .color(RGB(0, 0, 1)), ctm: .identity, state: .with(alpha: 0.5)),
            .fill(third.path, .nonZero, .color(RGB(0.2, 0.9, 0.9)), ctm: .identity, state: .with(blend: .multiply)),
            .stroke(first.path, thick, .color(RGB(1, 0, 0)), ctm: .identity, state: .with(alpha: 0.4)),
        ])
        let page = HandPage(
            content: """
                1 0.8 0 rg \(first.operators) f
                q /Half gs 0 0 1 rg \(second.operators) f Q
                q /Multiply gs 0.2 0.9 0.9 rg \(third.operators) f Q
                q /Stroke gs 12 w 1 0 0 RG \(first.operators) S Q
                """,
            resources: """
                << /ExtGState << /Half << /ca 0.5 >> /Multiply << /BM /Multiply >> /Stroke << /CA 0.4 >> >> >>
                """)
        try Fidelity.expectMatch(page.rendered(list), label: "alpha and blend")
    }

    @Test("Every blend mode matches MuPDF over a coloured backdrop", arguments: BlendMode.allCases)
    func blendModes(_ mode: BlendMode) throws {
        let backdrop = TestPath.rectangle(10, 10, 180, 90)
        let backdrop2 = TestPath.rectangle(10, 100, 180, 90)
        let source = TestPath.rectangle(60, 30, 80, 140)
        let list = DisplayList(items: [
            .fill(backdrop.path, .nonZero, .color(RGB(0.8, 0.3, 0.1)), ctm: .identity, state: DrawState()),
            .fill(backdrop2.path, .nonZero, .color(RGB(0.1, 0.5, 0.7)), ctm: .identity, state: DrawState()),
            .fill(source.path, .nonZero, .color(RGB(0.3, 0.7, 0.4)), ctm: .identity, state: .with(blend: mode)),
        ])
        let page = HandPage(
            content: """
                0.8 0.3 0.1 rg \(backdrop.operators) f 0.1 0.5 0.7 rg \(backdrop2.operators) f
                /B gs 0.3 0.7 0.4 rg \(source.operators) f
                """,
            resources: "<< /ExtGState << /B << /BM /\(mode.rawValue) >> >> >>")
        try Fidelity.expectMatch(page.rendered(list), label: "blend \(mode.rawValue)")
    }
}
