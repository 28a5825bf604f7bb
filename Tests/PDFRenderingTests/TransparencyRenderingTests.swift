import Foundation
import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// Tiling patterns, soft masks and transparency groups against MuPDF.
@Suite("Patterns and transparency against MuPDF")
struct TransparencyRenderingTests {
    /// A cell with two squares and a circle poking out of its bounding box (clipped by it).
    static func cell() -> (items: [DisplayItem], operators: String) {
        let a = TestPath.rectangle(0, 0, 10, 10)
        let b = TestPath.rectangle(10, 10, 10, 10)
        let c = TestPath.circle(18, 4, 5)
        return (
            [
                .fill(a.path, .nonZero, .color(RGB(1, 0, 0)), ctm: .identity, state: DrawState()),
                .fill(b.path, .nonZero, .color(RGB(0, 0, 1)), ctm: .identity, state: DrawState()),
                .fill(c.path, .nonZero, .color(RGB(0, 0.7, 0)), ctm: .identity, state: DrawState()),
            ],
            "1 0 0 rg \(a.operators) f 0 0 1 rg \(b.operators) f 0 0.7 0 rg \(c.operators) f"
        )
    }

    /// MuPDF 1.21 does not clip a rotated pattern's cells to their `/BBox` (ISO 32000-2 §8.7.3.3
    /// says it must), so the rotated case is compared with poppler, which does.
    @Test(
        "Tiling patterns, axis-aligned and rotated, with gaps and with overlapping cells, match MuPDF or poppler",
        arguments: [
            ("gaps", PDFMatrix(1, 0, 0, 1, 0, 0), 25.0, 25.0, false),
            ("rotated", PDFMatrix(0.8, 0.6, -0.6, 0.8, 30, 5), 24.0, 22.0, true),
            ("overlapping", PDFMatrix(1.5, 0, 0, 1.5, 3, 7), 16.0, 14.0, false),
        ])
    func tiling(_ label: String, _ matrix: PDFMatrix, _ xStep: Double, _ yStep: Double, _ poppler: Bool) throws {
        let cell = Self.cell()
        let bbox = PDFRectangle(x0: 0, y0: 0, x1: 20, y1: 20)
        let pattern = TilingPattern(
            cell: DisplayList(items: cell.items), bbox: bbox, xStep: xStep, yStep: yStep, matrix: matrix)
        let area = TestPath.circle(100, 100, 85)
        var outline = StrokeStyle()
        outline.width = 10
        let band = TestPath.rectangle(5, 5, 190, 20)
        let list = DisplayList(items: [
            .fill(area.path, .nonZero, .tiling(pattern), ctm: .identity, state: DrawState()),
            .stroke(band.path, outline, .tiling(pattern), ctm: .identity, state: DrawState()),
        ])
        let page = HandPage(
            content: "/Pattern cs /P scn \(area.operators) f /Pattern CS /P SCN 10 w \(band.operators) S",
            resources: "<< /Pattern << /P 5 0 R >> >>",
            objects: [
                .stream(
                    """
                    /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 20 20] /XStep \(xStep) /YStep \(yStep)
                    /Matrix [\(matrix.a) \(matrix.b) \(matrix.c) \(matrix.d) \(matrix.e) \(matrix.f)] /Resources << >>
                    """, Array(cell.operators.utf8))
            ])
        try Fidelity.expectMatch(page.rendered(list, poppler: poppler), label: "tiling \(label)")
        try Fidelity.expectMatch(page.rendered(list, dpi: 150, poppler: poppler), label: "tiling \(label) at 150 dpi")
    }

    @Test("A luminosity soft mask with a backdrop and an alpha soft mask match MuPDF")
    func softMasks() throws {
        let white = TestPath.rectangle(20, 20, 80, 160)
        let grey = TestPath.rectangle(100, 20, 80, 160)
        let luminosity = SoftMask(
            kind: .luminosity,
            group: DisplayList(items: [
                .fill(white.path, .nonZero, .color(.white), ctm: .identity, state: DrawState()),
                .fill(grey.path, .nonZero, .color(RGB(0.5, 0.5, 0.5)), ctm: .identity, state: DrawState()),
            ]), bounds: PDFRectangle(x0: 10, y0: 10, x1: 190, y1: 190), backdrop: RGB(0.2, 0.2, 0.2), transfer: nil)
        let disc = TestPath.circle(100, 100, 60)
        let alphaMask = SoftMask(
            kind: .alpha,
            group: DisplayList(items: [
                .fill(disc.path, .nonZero, .color(.black), ctm: .identity, state: .with(alpha: 0.6))
            ]), bounds: PDFRectangle(x0: 0, y0: 0, x1: 200, y1: 200), backdrop: .black, transfer: nil)
        let target = TestPath.rectangle(0, 60, 200, 80)
        let stripe = TestPath.rectangle(60, 0, 80, 200)
        let list = DisplayList(items: [
            .fill(target.path, .nonZero, .color(RGB(0, 0, 1)), ctm: .identity, state: .with(mask: luminosity)),
            .fill(
                stripe.path, .nonZero, .color(RGB(1, 0, 0)), ctm: .identity, state: .with(alpha: 0.8, mask: alphaMask)),
        ])
        let page = HandPage(
            content: """
                q /L gs 0 0 1 rg \(target.operators) f Q
                q /A gs 1 0 0 rg \(stripe.operators) f Q
                """,
            resources: """
                << /ExtGState << /L << /SMask << /Type /Mask /S /Luminosity /G 5 0 R /BC [0.2 0.2 0.2] >> >>
                /A << /ca 0.8 /SMask << /Type /Mask /S /Alpha /G 6 0 R >> >> >> >>
                """,
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [10 10 190 190] /Group << /S /Transparency /CS /DeviceRGB >>",
                    Array("1 1 1 rg \(white.operators) f 0.5 0.5 0.5 rg \(grey.operators) f".utf8)),
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Group << /S /Transparency >> /Resources << /ExtGState << /H << /ca 0.6 >> >> >>",
                    Array("/H gs 0 0 0 rg \(disc.operators) f".utf8)),
            ])
        try Fidelity.expectMatch(page.rendered(list), label: "soft masks")
    }

    @Test("A transparency group composited with alpha and a blend mode matches MuPDF")
    func group() throws {
        let first = TestPath.rectangle(30, 30, 100, 100)
        let second = TestPath.circle(120, 120, 50)
        let backdrop = TestPath.rectangle(0, 80, 200, 40)
        var group = TransparencyGroup()
        group.bounds = PDFRectangle(x0: 0, y0: 0, x1: 200, y1: 200)
        group.isolated = true
        group.state = .with(alpha: 0.5)
        var multiplied = TransparencyGroup()
        multiplied.state = .with(blend: .multiply)
        let list = DisplayList(items: [
            .fill(backdrop.path, .nonZero, .color(RGB(0.9, 0.8, 0)), ctm: .identity, state: DrawState()),
            .beginGroup(group),
            .fill(first.path, .nonZero, .color(RGB(1, 0, 0)), ctm: .identity, state: DrawState()),
            .fill(second.path, .nonZero, .color(RGB(0, 0, 1)), ctm: .identity, state: DrawState()),
            .endGroup,
            .beginGroup(multiplied),
            .fill(
                TestPath.rectangle(140, 10, 50, 180).path, .nonZero, .color(RGB(0.3, 0.9, 0.9)), ctm: .identity,
                state: DrawState()),
            .endGroup,
        ])
        let page = HandPage(
            content: "0.9 0.8 0 rg \(backdrop.operators) f q /Half gs /G Do Q q /M gs /G2 Do Q",
            resources:
                "<< /ExtGState << /Half << /ca 0.5 >> /M << /BM /Multiply >> >> /XObject << /G 5 0 R /G2 6 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Group << /S /Transparency /I true >>",
                    Array("1 0 0 rg \(first.operators) f 0 0 1 rg \(second.operators) f".utf8)),
                .stream(
                    "/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Group << /S /Transparency >>",
                    Array("0.3 0.9 0.9 rg 140 10 50 180 re f".utf8)),
            ])
        try Fidelity.expectMatch(page.rendered(list), label: "group")
    }
}
