import PDFTestSupport
import Testing

/// The text state (ISO 32000-2 §9.3) drawn by the whole pipeline against MuPDF: render modes,
/// spacing, scaling, rise and text matrices.
@Suite("Text state against MuPDF")
struct TextStateTests {
    static let resources =
        "<< /Font << /F0 \(TextRenderingTests.standardFont("Helvetica-Bold")) /F1 \(TextRenderingTests.standardFont("Times-Roman")) >> /Shading << /Sh0 5 0 R >> >>"

    /// An axial shading across the page, red to blue (§8.7.4.5.3).
    static let shading = HandPage.Object.body(
        "<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 400 0] /Extend [true true] /Function << /FunctionType 2 /Domain [0 1] /C0 [1 0.1 0] /C1 [0 0.2 1] /N 1 >> >>"
    )

    @Test("render modes 0–7 (§9.3.6): fill, stroke, both, invisible and the clip modes around a shading")
    func renderModes() throws {
        let content = """
            BT /F0 30 Tf 20 360 Td 0 Tr (Fill 0) Tj ET
            BT /F0 30 Tf 1 0 0 RG 1.5 w 20 320 Td 1 Tr (Stroke 1) Tj ET
            BT /F0 30 Tf 0 0.6 0 rg 0 0 1 RG 2 w 20 280 Td 2 Tr (Both 2) Tj ET
            BT /F0 30 Tf 20 240 Td 3 Tr (Invisible 3) Tj 0 Tr ( shown) Tj ET
            q BT /F0 30 Tf 0.5 g 20 200 Td 4 Tr (Clip 4) Tj ET /Sh0 sh Q
            q BT /F0 30 Tf 1 0 1 RG 1 w 20 160 Td 5 Tr (Clip 5) Tj ET /Sh0 sh Q
            q BT /F0 30 Tf 0 g 1 0 0 RG 1 w 20 120 Td 6 Tr (Clip 6) Tj ET /Sh0 sh Q
            q BT /F0 30 Tf 20 80 Td 7 Tr (Clip) Tj /F1 30 Tf ( seven) Tj 0 -34 Td (two lines) Tj ET /Sh0 sh Q
            0 0 1 rg 300 10 50 50 re f
            """
        let page = TextPage(
            width: 400, height: 400, content: content, resources: Self.resources, objects: [Self.shading])
        try Fidelity.expectMatch(page.rendered(), label: "render modes")
        try Fidelity.expectMatch(page.rendered(dpi: 144), label: "render modes at 144 dpi")
    }

    @Test("a clip mode with nothing shown leaves the clip as it was (the shading fills the page)")
    func emptyClip() throws {
        // §9.3.6: the clip is the intersection with the glyphs' union; MuPDF treats an empty text
        // object as adding no clip at all.
        let content = "q BT /F0 30 Tf 7 Tr ET 0 0 200 100 re W n /Sh0 sh Q"
        let page = TextPage(
            width: 400, height: 200, content: content, resources: Self.resources, objects: [Self.shading])
        try Fidelity.expectMatch(page.rendered(), label: "empty clip text object")
    }

    @Test("tiny, huge and negative font sizes, and stroked text under a skewed, scaled text matrix")
    func sizesAndStrokes() throws {
        let content = """
            BT /F1 0.8 Tf 10 380 Td (tiny text at 0.8 pt) Tj /F1 3 Tf 0 -6 Td (small text at 3 pt) Tj ET
            BT /F0 200 Tf 120 130 Td (Wg) Tj ET
            BT /F1 -24 Tf 200 330 Td (Negative size) Tj ET
            BT /F0 28 Tf 1 Tr 1.2 w 1 0 0 RG 60 Tz 1 0.3 0.5 1 20 40 Tm (Stroked skew) Tj ET
            BT /F0 28 Tf 2 Tr 0.6 w 0 0 1 RG 0 1 0 rg 140 Tz 2 0 0 0.5 150 100 Tm (Wide) Tj ET
            """
        let page = TextPage(
            width: 400, height: 400, content: content, resources: Self.resources, objects: [Self.shading])
        try Fidelity.expectMatch(page.rendered(), label: "sizes and strokes")
        try Fidelity.expectMatch(page.rendered(dpi: 200), label: "sizes and strokes at 200 dpi")
    }

    @Test("a Type 3 font (§9.6.4): filled glyph procedures, invisible (mode 3) and under a rotated matrix")
    func type3() throws {
        // Glyph "a" a filled square, "b" a stroked triangle with its own colour (d0), in a
        // 1000-unit glyph space.
        let square = "1000 0 0 0 750 750 d1 0 0 750 750 re f"
        let triangle = "1000 0 d0 1 0 0 RG 60 w 50 50 m 700 50 l 375 700 l h S"
        let font =
            "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 750 750] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 6 0 R /b 7 0 R >> /Encoding << /Type /Encoding /Differences [97 /a /b] >> /FirstChar 97 /LastChar 98 /Widths [1000 1000] /Resources << >> >>"
        let content = """
            BT /T3 24 Tf 0 0 1 rg 20 160 Td (abab ba) Tj ET
            BT /T3 24 Tf 3 Tr 20 120 Td (abab) Tj 0 Tr (ba) Tj ET
            BT /T3 30 Tf 0 0.6 0 rg 0.7 0.7 -0.7 0.7 120 20 Tm 20 Tc (aabb) Tj ET
            """
        let page = TextPage(
            width: 300, height: 200, content: content, resources: "<< /Font << /T3 5 0 R >> >>",
            objects: [.body(font), .stream("", Array(square.utf8)), .stream("", Array(triangle.utf8))])
        // MuPDF 1.21 still draws the d0 (coloured) glyphs of invisible text; poppler draws none, as
        // §9.3.6 says. So the page is compared with poppler, and without its invisible line with MuPDF.
        try Fidelity.expectMatch(page.rendered(dpi: 150, poppler: true), label: "Type 3 against poppler")
        var visible = page
        visible.content = content.split(separator: "\n").filter { !$0.contains("3 Tr") }.joined(separator: "\n")
        try Fidelity.expectMatch(visible.rendered(), label: "Type 3")
        try Fidelity.expectMatch(visible.rendered(dpi: 150), label: "Type 3 at 150 dpi")
    }

    @Test("Tz, Tc, Tw, Ts, TJ adjustments, leading and rotated, skewed and mirrored text matrices")
    func spacingAndMatrices() throws {
        let content = """
            BT /F1 18 Tf 20 370 Td 150 Tz (Scaled 150 %) Tj ET
            BT /F1 18 Tf 20 345 Td 50 Tz (Scaled 50 % and more text) Tj ET
            BT /F1 18 Tf 20 320 Td 4 Tc (Char spacing) Tj -1 Tc ( tight) Tj ET
            BT /F1 18 Tf 20 295 Td 12 Tw (Word spacing a b c) Tj ET
            BT /F1 18 Tf 20 270 Td (base) Tj 7 Ts (up) Tj -5 Ts (down) Tj 0 Ts (back) Tj ET
            BT /F1 18 Tf 20 245 Td [(A) -900 (V) 300 (AW) 120 (ay) -2000 (gap)] TJ ET
            BT /F1 14 Tf 20 TL 250 240 Td (Line one) Tj T* (line two) Tj (line three) ' 5 2 (four) " ET
            BT /F0 20 Tf 0.866 0.5 -0.5 0.866 40 40 Tm (Rotated 30 degrees) Tj ET
            BT /F0 20 Tf 1 0 0.45 1 220 120 Tm (Skewed) Tj ET
            BT /F0 20 Tf -1 0 0 1 380 80 Tm (Mirrored) Tj ET
            BT /F0 20 Tf 0 1 -1 0 390 150 Tm (Up) Tj ET
            q 0.8 0 0 1.2 250 10 cm BT /F0 14 Tf 120 Tz 2 Tc 5 Tw 3 Ts (cm and all) Tj ET Q
            """
        let page = TextPage(
            width: 400, height: 400, content: content, resources: Self.resources, objects: [Self.shading])
        try Fidelity.expectMatch(page.rendered(), label: "spacing and matrices")
        try Fidelity.expectMatch(page.rendered(dpi: 144), label: "spacing and matrices at 144 dpi")
    }
}
