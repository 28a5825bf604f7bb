import Foundation
import PDFAuthoring
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// The glyphs MuPDF reports for a page (`mutool trace`): unicode and origin in user space.
func mupdfGlyphs(_ path: String, page: Int, password: String? = nil) throws -> [(unicode: String, x: Double, y: Double)]
{
    let result = try Oracle.run(
        "mutool", ["trace"] + (password.map { ["-p", $0] } ?? []) + [path, String(page)], timeout: 120)
    var glyphs: [(String, Double, Double)] = []
    for line in result.output.split(separator: "\n") where line.contains("<g ") {
        func attribute(_ name: String) -> String? {
            guard let start = line.range(of: " \(name)=\"") else { return nil }
            let rest = line[start.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { return nil }
            return String(rest[..<end])
        }
        guard let x = attribute("x").flatMap(Double.init), let y = attribute("y").flatMap(Double.init) else { continue }
        glyphs.append((attribute("unicode") ?? "", x, y))
    }
    return glyphs
}

@Suite("The content interpreter")
struct InterpreterTests {
    static func list(_ bytes: [UInt8], page: Int = 0, annotations: GraphicsOptions.Annotations = .display) throws
        -> DisplayList
    {
        var options = GraphicsOptions()
        options.annotations = annotations
        return GraphicsDocument(document: try PDFDocument(bytes: bytes), options: options).displayList(pageAt: page)
    }

    static func page(_ content: String, resources: PDFDictionary? = nil) -> [UInt8] {
        var builder = PDFBuilder()
        builder.addPage(content: Array(content.utf8), resources: resources)
        return builder.build()
    }

    @Test("paths, colours, the CTM and clips become items with the matrix they were drawn in")
    func paths() throws {
        let list = try Self.list(
            Self.page("q 2 0 0 2 10 20 cm 1 0 0 rg 0 0 5 5 re f Q 0 0 1 RG 3 w 0 0 m 10 10 l S 0 0 50 50 re W n"))
        var fills = 0
        var strokes = 0
        var clips = 0
        for item in list.items {
            switch item {
            case .fill(let path, let rule, let paint, let ctm, _):
                fills += 1
                #expect(rule == .nonZero && path.bounds == PDFRectangle(x0: 0, y0: 0, x1: 5, y1: 5))
                #expect(ctm == PDFMatrix(2, 0, 0, 2, 10, 20))
                if case .color(let color) = paint {
                    #expect(color == RGB(1, 0, 0))
                } else {
                    Issue.record("not a colour")
                }
            case .stroke(_, let style, let paint, let ctm, _):
                strokes += 1
                #expect(style.width == 3 && ctm == .identity)
                if case .color(let color) = paint { #expect(color == RGB(0, 0, 1)) }
            case .clip(let path, _, _):
                clips += 1
                #expect(path.bounds == PDFRectangle(x0: 0, y0: 0, x1: 50, y1: 50))
            default: break
            }
        }
        #expect(fills == 1 && strokes == 1 && clips == 1)
        // Saves and restores balance.
        let saves = list.items.filter { if case .save = $0 { true } else { false } }.count
        let restores = list.items.filter { if case .restore = $0 { true } else { false } }.count
        #expect(saves == restores)
    }

    @Test("bad operators and missing resources are warnings; the rest still draws")
    func damage() throws {
        let list = try Self.list(
            Self.page("0 0 1 rg /Missing gs 1 2 frob 0 0 5 5 re f /Nothing Do BT /F9 12 Tf (x) Tj ET"))
        #expect(list.warnings.count >= 3, "\(list.warnings)")
        #expect(list.items.contains { if case .fill = $0 { true } else { false } })
    }

    @Test("a form, a Type 3 font and a tiling pattern that draw themselves are cut at the first repeat")
    func selfDrawingContent() throws {
        // Each draws itself four times over: unrolled to the nesting limit that would be 4^16 runs.
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R /Resources << /XObject << /Me 5 0 R >> /Font << /T3 6 0 R >> /Pattern << /P 8 0 R >> >> >>"
        )
        pdf.stream(
            4, dictionary: "",
            data: Array("/Me Do BT /T3 20 Tf 10 10 Td (aaaa) Tj ET /Pattern cs /P scn 0 0 50 50 re f".utf8))
        pdf.stream(
            5, dictionary: "/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /Me 5 0 R >> >>",
            data: Array("0 0 1 1 re f /Me Do /Me Do /Me Do /Me Do".utf8))
        pdf.object(
            6,
            "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /FirstChar 97 /LastChar 97 /Widths [1000] /Encoding << /Differences [97 /box] >> /CharProcs << /box 7 0 R >> /Resources << /Font << /T3 6 0 R >> >> >>"
        )
        pdf.stream(7, dictionary: "", data: Array("1000 0 d0 0 0 500 500 re f BT /T3 1 Tf (aaaa) Tj ET".utf8))
        pdf.stream(
            8,
            dictionary:
                "/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 4 4] /XStep 4 /YStep 4 /Resources << /Pattern << /P 8 0 R >> >>",
            data: Array("/Pattern cs /P scn 0 0 2 2 re f 2 2 2 2 re f".utf8))
        pdf.xrefTable(size: 9, trailer: "<< /Size 9 /Root 1 0 R >>")
        let list = try Self.list(pdf.bytes)
        for what in ["form /Me", "Type 3 font", "tiling pattern /P"] {
            #expect(list.warnings.contains { $0.contains(what) && $0.contains("draws itself") }, "\(list.warnings)")
        }
        // The form's square, four glyph squares and the page's fill, with few more from the cut levels.
        let fills = list.items.filter { if case .fill = $0 { true } else { false } }.count
        #expect(fills >= 6 && fills < 50, "\(fills) fills")
    }

    @Test("without paints (text extraction) shadings are not built and patterns paint black; geometry stays")
    func withoutPaints() throws {
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R /Resources << /Shading << /S 5 0 R >> /Pattern << /P << /PatternType 2 /Shading 5 0 R >> >> >> >>"
        )
        pdf.stream(4, dictionary: "", data: Array("/S sh /Pattern cs /P scn 0 0 50 50 re f".utf8))
        pdf.object(
            5,
            "<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 100 0] /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >> >>"
        )
        pdf.xrefTable(size: 6, trailer: "<< /Size 6 /Root 1 0 R >>")
        var options = GraphicsOptions()
        let painted = GraphicsDocument(document: try PDFDocument(bytes: pdf.bytes), options: options).displayList(
            pageAt: 0)
        options.includesPaints = false
        let bare = GraphicsDocument(document: try PDFDocument(bytes: pdf.bytes), options: options).displayList(
            pageAt: 0)
        func shadings(_ list: DisplayList) -> Int {
            list.items.filter { if case .shading = $0 { true } else { false } }.count
        }
        func fillPaints(_ list: DisplayList) -> [Paint] {
            list.items.compactMap { if case .fill(_, _, let paint, _, _) = $0 { paint } else { nil } }
        }
        #expect(shadings(painted) == 1 && shadings(bare) == 0)
        #expect(fillPaints(painted).count == 1 && fillPaints(bare).count == 1)
        if case .shading = fillPaints(painted).first {} else { Issue.record("the pattern fill is not a shading paint") }
        if case .color = fillPaints(bare).first {} else { Issue.record("without paints the fill is not a colour") }
    }

    @Test("glyph origins agree with MuPDF's on the sample document")
    func glyphPositions() throws {
        let directory = try TestPaths.temporaryDirectory("interpreter")
        var builder = PDFBuilder()
        builder.addPage(
            content: Array(
                "BT /F1 12 Tf 72 700 Td 2 Tc 5 Tw 90 Tz (Spaced out words) Tj 0 -20 Td [(Kern) -500 (ed) 250 (!)] TJ 14 TL T* 0 Tc 100 Tz 3 Ts (Rise) ' 0 Ts 1 0 0.3 1 300 500 Tm (Skew) Tj ET"
                    .utf8))
        let bytes = builder.build()
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/text.pdf"))
        let ours = try Self.list(bytes).items.flatMap { item -> [PositionedGlyph] in
            if case .glyphs(let run, _) = item { return run.glyphs }
            return []
        }
        let theirs = try mupdfGlyphs(directory + "/text.pdf", page: 1)
        #expect(ours.count == theirs.count)
        for (glyph, reference) in zip(ours, theirs) {
            #expect(glyph.unicode == reference.unicode)
            #expect(
                abs(glyph.matrix.e - reference.x) < 0.01 && abs(glyph.matrix.f - reference.y) < 0.01,
                "\(reference.unicode): (\(glyph.matrix.e), \(glyph.matrix.f)) vs (\(reference.x), \(reference.y))")
        }
    }
}
