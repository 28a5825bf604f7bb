import Foundation
import PDFCore
import PDFRendering
import PDFTestSupport
import Testing

@testable import PDFGraphics

/// Annotations without an appearance stream, drawn from their dictionaries, against poppler
/// (`pdftoppm`) and MuPDF (`mutool draw`), which draw their own for them too.
@Suite(
    "Annotations without an appearance stream, against poppler and MuPDF",
    .enabled(if: Requirement.tools("mutool", "pdftoppm"), "mutool or pdftoppm is not installed"))
struct AnnotationAppearanceTests {
    /// One page of annotations of one kind, with points (PDF user space) that must be drawn.
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var annotations: [String]
        /// Points inside what must be drawn: not white on our rendering.
        var inked: [(x: Double, y: Double)]
        /// The share of differing pixels allowed against the closer oracle.
        var tolerance = 0.02
        /// More catalog entries (an `/AcroForm` with default resources).
        var catalog = ""
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "Square and Circle: /C, /IC, /BS width and dash, /CA, no border",
            annotations: [
                "/Subtype /Square /Rect [10 110 90 190] /C [1 0 0] /IC [0 0 1] /BS << /W 4 >>",
                "/Subtype /Circle /Rect [110 110 190 190] /C [0 0.5 0] /BS << /W 3 /S /D /D [6 3] >>",
                "/Subtype /Square /Rect [10 10 90 90] /C [0 0 0] /CA 0.5 /IC [1 1 0]",
                "/Subtype /Circle /Rect [110 10 190 90] /IC [1 0 1] /C [0 0 1] /BS << /W 0 >>",
            ],
            inked: [(50, 150), (11.5, 150), (150, 50), (50, 50)]),
        Case(
            label: "Line: every line ending, /IC filling the closed ones",
            annotations: [
                "/Subtype /Line /Rect [0 0 200 200] /L [20 180 180 180] /LE [/OpenArrow /ClosedArrow] /C [1 0 0] /IC [0 1 0] /BS << /W 2 >>",
                "/Subtype /Line /Rect [0 0 200 200] /L [20 140 180 140] /LE [/Square /Circle] /C [0 0 1] /IC [1 1 0] /BS << /W 2 >>",
                "/Subtype /Line /Rect [0 0 200 200] /L [20 100 180 100] /LE [/Diamond /Butt] /C [0 0 0] /BS << /W 1 >>",
                "/Subtype /Line /Rect [0 0 200 200] /L [20 60 180 60] /LE [/ROpenArrow /RClosedArrow] /C [0 0.5 0] /BS << /W 3 >>",
                "/Subtype /Line /Rect [0 0 200 200] /L [20 20 180 40] /LE [/Slash /None] /C [0.5 0 0.5] /BS << /W 2 >>",
            ],
            inked: [(100, 180), (100, 140), (100, 60), (176, 180), (20, 140)]),
        Case(
            label: "Polygon filled and PolyLine with a closed arrow",
            annotations: [
                "/Subtype /Polygon /Rect [10 100 190 190] /Vertices [20 110 100 180 180 110] /C [1 0 0] /IC [0 0 1] /BS << /W 3 >>",
                "/Subtype /PolyLine /Rect [10 10 190 90] /Vertices [20 20 60 80 100 20 140 80 180 20] /LE [/None /ClosedArrow] /C [0 0.6 0] /BS << /W 2 >>",
            ],
            inked: [(100, 130), (60, 80), (100, 21)]),
        Case(
            label: "Ink: two strokes five points wide",
            annotations: [
                "/Subtype /Ink /Rect [10 10 190 190] /InkList [[20 20 60 150 100 40 180 180] [30 170 170 30]] /C [0 0 1] /BS << /W 5 >>"
            ],
            inked: [(100, 100), (40, 85), (140, 110)]),
        Case(
            label: "Highlight, Underline, StrikeOut and Squiggly over quadrilaterals in the order viewers write",
            annotations: [
                "/Subtype /Highlight /Rect [20 150 180 180] /QuadPoints [20 180 180 180 20 150 180 150] /C [1 1 0]",
                "/Subtype /Underline /Rect [20 110 180 140] /QuadPoints [20 140 180 140 20 110 180 110] /C [0 0 1]",
                "/Subtype /StrikeOut /Rect [20 70 180 100] /QuadPoints [20 100 180 100 20 70 180 70] /C [1 0 0]",
                "/Subtype /Squiggly /Rect [20 30 180 60] /QuadPoints [20 60 180 60 20 30 180 30] /C [0 0.6 0]",
            ],
            inked: [(100, 165), (100, 110), (100, 85)]),
        Case(
            label: "FreeText: /DA font, size and colour, wrapped, centred with /Q 1, /C background, /BS border",
            annotations: [
                "/Subtype /FreeText /Rect [10 100 190 190] /Contents (Hello FreeText annotation wrapped inside the box) /DA (/Helv 14 Tf 0 0 1 rg) /BS << /W 1 >> /C [1 0.9 0.8]",
                "/Subtype /FreeText /Rect [10 10 190 90] /Contents (Centred text) /DA (/F1 12 Tf 1 0 0 rg) /Q 1 /BS << /W 2 >>",
            ],
            inked: [(150, 120), (10.5, 50)], tolerance: 0.03),
        Case(
            label: "FreeText: the background is /C, never /IC, as poppler and MuPDF draw it",
            annotations: [
                "/Subtype /FreeText /Rect [10 100 190 190] /Contents (Background from C) /DA (/Helv 12 Tf 0 g) /C [1 0.8 0.8] /IC [0.2 0.2 1] /BS << /W 1 >>",
                "/Subtype /FreeText /Rect [10 10 190 90] /Contents (Only IC given) /DA (/Helv 12 Tf 0 g) /IC [0.8 1 0.8] /BS << /W 1 >>",
            ],
            inked: [(150, 150)], tolerance: 0.03),
        Case(
            label: "FreeText: the /DR font /DA names (Times), right-aligned, a dashed border",
            annotations: [
                "/Subtype /FreeText /Rect [10 100 190 190] /Contents (Right aligned in Times from the form resources) /DA (/TiRo 13 Tf 0.5 0 0 rg) /Q 2 /C [0.85 0.95 1] /BS << /W 1.5 /S /D /D [4 2] >>",
                "/Subtype /FreeText /Rect [10 10 190 90] /Contents (Helvetica line one\\rline two) /DA (/Helv 11 Tf 0 0.4 0 rg) /BS << /W 0 >> /RD [5 5 5 5]",
            ],
            inked: [(12, 150), (16, 78)], tolerance: 0.03,
            catalog:
                "/AcroForm << /Fields [] /DR << /Font << /TiRo << /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >> >> >> >>"
        ),
        // The icons are drawings of our own after poppler's (the same box, colours and places, other
        // strokes), so their insides differ more than the shapes above.
        Case(
            label: "Text (sticky note) icons in /C",
            annotations: [
                "/Subtype /Text /Rect [10 150 30 170] /Name /Note /C [1 1 0]",
                "/Subtype /Text /Rect [50 150 70 170] /Name /Comment /C [0 1 0]",
                "/Subtype /Text /Rect [90 150 110 170] /Name /Key /C [0 0 1]",
                "/Subtype /Text /Rect [130 150 150 170] /Name /Help /C [1 0 0]",
                "/Subtype /Text /Rect [10 100 30 120] /Name /NewParagraph /C [1 0 1]",
                "/Subtype /Text /Rect [50 100 70 120] /Name /Paragraph /C [0 1 1]",
                "/Subtype /Text /Rect [90 100 110 120] /Name /Insert /C [0.5 0.5 0]",
            ],
            inked: [(12, 166), (52, 166), (92, 166), (132, 166), (12, 116)], tolerance: 0.055),
        // Poppler draws a stamp's words as paths of its own typeface; ours are Helvetica stretched to
        // the same box and colour: borders agree, letters only roughly (about 13 % of this page).
        Case(
            label: "Stamps with standard names, and one without (a draft)",
            annotations: [
                "/Subtype /Stamp /Rect [10 150 190 190] /Name /Approved",
                "/Subtype /Stamp /Rect [10 100 190 140] /Name /NotForPublicRelease",
                "/Subtype /Stamp /Rect [10 50 190 90]",
                "/Subtype /Stamp /Rect [10 5 190 45] /Name /TopSecret",
            ],
            inked: [(13, 170), (13, 120), (100, 53)], tolerance: 0.15),
    ]

    /// The page of `annotations`, each an annotation dictionary's entries after `/Type /Annot`.
    static func page(_ annotations: [String], catalog: String = "") -> HandPage {
        var page = HandPage(content: "")
        page.catalogEntries = catalog
        page.pageEntries =
            "/Annots [" + annotations.map { "<< /Type /Annot \($0) /F 4 >>" }.joined(separator: " ") + "]"
        return page
    }

    @Test("each kind of annotation is drawn, and matches poppler or MuPDF", arguments: cases)
    func matchesAnOracle(_ testCase: Case) throws {
        let page = Self.page(testCase.annotations, catalog: testCase.catalog)
        let popplers = try page.rendered(poppler: true)
        let mupdfs = try page.rendered(poppler: false)
        // What the annotations draw: the points inside them are no longer the white of the page.
        let ours = popplers.ours
        for point in testCase.inked {
            let (x, y) = (Int(point.x), Int(page.height - point.y))
            let index = (y * ours.width + x) * 3
            let pixel = ours.pixels[index..<(index + 3)]
            #expect(pixel.contains { $0 < 230 }, "\(testCase.label): nothing drawn at \(point): \(Array(pixel))")
        }
        #expect(Fidelity.inkedPixels(ours) > 200, "\(testCase.label): next to nothing drawn")
        let fromPoppler = Fidelity.compare(popplers.ours, popplers.theirs)?.fraction ?? 1
        let fromMuPDF = Fidelity.compare(mupdfs.ours, mupdfs.theirs)?.fraction ?? 1
        print("\(testCase.label): poppler \(fromPoppler), MuPDF \(fromMuPDF)")
        try Fidelity.expectMatch(
            fromPoppler <= fromMuPDF ? popplers : mupdfs, tolerance: testCase.tolerance, label: testCase.label)
    }

    @Test("an annotation with an appearance stream is drawn from it; one whose /AS names no state from its dictionary")
    func appearanceStreamWins() throws {
        var page = Self.page([
            "/Subtype /Square /Rect [20 20 180 180] /C [1 0 0] /IC [1 0 0] /AP << /N 5 0 R >>"
        ])
        page.objects = [
            .stream("/Type /XObject /Subtype /Form /BBox [0 0 10 10]", Array("0 0 1 rg 0 0 10 10 re f".utf8))
        ]
        let pair = try page.rendered()
        let middle = (100 * pair.ours.width + 100) * 3
        #expect(Array(pair.ours.pixels[middle..<(middle + 3)]) == [0, 0, 255])
        try Fidelity.expectMatch(pair, label: "appearance stream over dictionary")
        // An /AS that names no state of /AP /N: the dictionary again, as poppler draws it.
        var missing = Self.page([
            "/Subtype /Square /Rect [20 20 180 180] /C [1 0 0] /IC [1 0 0] /AP << /N << /On 5 0 R >> >> /AS /Off"
        ])
        missing.objects = page.objects
        let drawn = try missing.rendered(poppler: true)
        #expect(Array(drawn.ours.pixels[middle..<(middle + 3)]) == [255, 0, 0])
        try Fidelity.expectMatch(drawn, label: "an appearance state that is missing")
    }

    @Test("FreeText's words are in the page's text, as drawn; not when annotations are left out")
    func freeTextIsExtracted() throws {
        let page = Self.page([
            "/Subtype /FreeText /Rect [10 100 190 190] /Contents (Quarterly figures approved by the board) /DA (/Helv 12 Tf 0 g)"
        ])
        let document = try PDFDocument(bytes: page.bytes())
        let text = TextExtractor(document: document).text(pageAt: 0).plainText
        for word in ["Quarterly", "figures", "approved", "board"] {
            #expect(text.contains(word), "\(word) is not in \(text.debugDescription)")
        }
        var options = TextOptions()
        options.annotations = .none
        #expect(!TextExtractor(document: document, options: options).text(pageAt: 0).plainText.contains("Quarterly"))
    }

    @Test("quadrilaterals in the counterclockwise order of the standard draw as in the order viewers write")
    func quadPointOrders() throws {
        func rendered(_ annotations: [String]) throws -> OracleImage {
            let renderer = DocumentRenderer(document: try PDFDocument(bytes: Self.page(annotations).bytes()))
            return OracleImage(renderer.render(pageAt: 0).image)
        }
        // Acrobat's order (upper left, upper right, lower left, lower right) with /C, and the standard's
        // (lower left, lower right, upper right, upper left) without: a highlight is yellow by default.
        let viewers = try rendered([
            "/Subtype /Highlight /Rect [20 150 180 180] /QuadPoints [20 180 180 180 20 150 180 150] /C [1 1 0]",
            "/Subtype /Underline /Rect [20 60 120 90] /QuadPoints [20 90 120 90 20 60 120 60] /C [0 0 1]",
        ])
        let standard = try rendered([
            "/Subtype /Highlight /Rect [20 150 180 180] /QuadPoints [20 150 180 150 180 180 20 180]",
            "/Subtype /Underline /Rect [20 60 120 90] /QuadPoints [20 60 120 60 120 90 20 90] /C [0 0 1]",
        ])
        #expect(Fidelity.inkedPixels(viewers) > 1000)
        #expect(try #require(Fidelity.compare(viewers, standard)).differing == 0)
        let middle = (35 * viewers.width + 100) * 3
        #expect(Array(standard.pixels[middle..<(middle + 3)]) == [255, 255, 0])
    }

    @Test("a stamp's words are drawn but are not text of the page, as pdftotext has none")
    func stampWordsAreNotText() throws {
        let page = Self.page(["/Subtype /Stamp /Rect [10 100 190 190] /Name /Confidential"])
        let document = try PDFDocument(bytes: page.bytes())
        #expect(!TextExtractor(document: document).text(pageAt: 0).plainText.contains("Confidential"))
        let path = try page.write()
        let theirs = try Oracle.run("pdftotext", [path, "-"]).output
        #expect(!theirs.contains("Confidential"))
    }

    @Test("hostile dictionaries (huge counts, huge and negative numbers) draw something bounded, quickly")
    func hostileDictionaries() throws {
        let huge = String(repeating: "9", count: 400)
        let manyPoints = (0..<60_000).map { "\($0 % 200) \($0 % 197)" }.joined(separator: " ")
        let manyPaths = (0..<3_000).map { "[\($0 % 200) 0 0 \($0 % 200)]" }.joined(separator: " ")
        let manyQuads = (0..<20_000).map { _ in "0 10 200 10 0 0 200 0" }.joined(separator: " ")
        let longText = String(repeating: "word ", count: 30_000)
        let page = Self.page([
            "/Subtype /Ink /Rect [0 0 200 200] /InkList [[\(manyPoints)] \(manyPaths)] /BS << /W -5 >>",
            "/Subtype /Ink /Rect [0 0 200 200] /InkList [[0 0 \(huge) \(huge)] [-\(huge) 5 5 5]] /C [0 0 1]",
            "/Subtype /Polygon /Rect [0 0 200 200] /Vertices [\(manyPoints)] /C [0 0 0 0 0 0] /IC [2 -1 0.5]",
            "/Subtype /Squiggly /Rect [0 0 200 200] /QuadPoints [\(manyQuads) 0 900000 900000 900000 0 0 900000 0]",
            "/Subtype /Square /Rect [0 0 \(huge) 200] /BS << /W \(huge) /S /D /D [0 0] >> /CA -3",
            "/Subtype /Circle /Rect [0 0 200 200] /BS << /W 1e30 >> /RD [-1 -1 500 500]",
            "/Subtype /Line /Rect [0 0 200 200] /L [5 5 5 5] /LE [/ClosedArrow]",
            "/Subtype /Line /Rect [0 0 200 200] /L [0 0 200 200] /LL 999999 /LLE -4 /LE [/Slash /Garbage 3]",
            "/Subtype /FreeText /Rect [0 0 200 200] /Contents (\(longText)) /DA (/Nothing 0.0001 Tf 9 9 9 rg)",
            "/Subtype /FreeText /Rect [0 0 200 200] /Contents (x) /DA (/Helv \(huge) Tf) /RD [1 2]",
            "/Subtype /Stamp /Rect [0 0 0.001 200] /Name /Approved",
            "/Subtype /Text /Rect [0 0 \(huge) -\(huge)] /Name (Key)",
            "/Subtype /Highlight /QuadPoints [1 2 3]",
        ])
        let document = try PDFDocument(bytes: page.bytes())
        let clock = ContinuousClock()
        let started = clock.now
        let list = GraphicsDocument(document: document).displayList(pageAt: 0)
        _ = TextExtractor(document: document).text(pageAt: 0)
        let elapsed = clock.now - started
        #expect(elapsed < .seconds(60), "took \(elapsed)")
        #expect(!list.items.isEmpty)
    }

    @Test("numbers that PDF syntax cannot write (NaN, infinity) are refused, never drawn")
    func notFiniteNumbers() throws {
        let document = try PDFDocument(bytes: Self.page([]).bytes())
        let nan = PDFObject.real(PDFReal(.nan))
        let infinity = PDFObject.real(PDFReal(.infinity))
        let square: PDFDictionary = [
            .subtype: .name("Square"), .rect: [0, 0, nan, 100], .c: [1, 0, 0],
        ]
        #expect(AnnotationAppearance(annotation: square, document: document) == nil)
        let ink: PDFDictionary = [
            .subtype: .name("Ink"), .rect: [0, 0, 100, 100], .inkList: [[0, 0, infinity, 5], [1, 1, 50, 50]],
            .bs: .dictionary([.w: nan]), .ca: nan,
        ]
        let appearance = try #require(AnnotationAppearance(annotation: ink, document: document))
        // The stroke with infinity is left out, the other drawn one point wide (the default) and opaque.
        #expect(appearance.bbox.x1 < 100 && appearance.bbox.x0 > -10)
        #expect(appearance.resources[.extGState] == nil)
        let text = String(decoding: appearance.content, as: UTF8.self)
        #expect(!text.contains("nan") && !text.contains("inf") && text.contains("1 w"))
    }
}
