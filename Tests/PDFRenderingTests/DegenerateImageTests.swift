import PDFCore
import PDFRendering
import PDFTestSupport
import Testing

/// Images under matrices that squash them to slivers and rules. A near-degenerate matrix once put
/// cairo in an error state (its inverse does not fit pixman's fixed point) and every later
/// operation on the page was lost; a rule thinner than a pixel drawn as an image vanished.
@Suite("Images under near-degenerate matrices")
struct DegenerateImageTests {
    /// A 2×2 RGB image with a 2×2 soft mask drawn by `matrix`, then a red square at (10, 10).
    static func page(_ matrix: String) -> HandPage {
        HandPage(
            width: 200, height: 200, content: "q \(matrix) cm /Im0 Do Q 1 0 0 rg 10 10 40 40 re f",
            resources: "<< /XObject << /Im0 5 0 R >> >>",
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask 6 0 R",
                    [0, 0, 255, 0, 128, 0, 0, 0, 128, 64, 0, 64]),
                .stream(
                    "/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8",
                    [255, 255, 200, 255]),
            ])
    }

    @Test(
        "A sliver whose sides are almost parallel: nothing drawn of it, the rest of the page drawn, as poppler",
        arguments: ["1 1 1 1.000001 100 100", "150 150 150 150.0000001 20 20", "0.3 0.3 0.3 0.3000001 100 100"])
    func sliver(_ matrix: String) throws {
        let pair = try Self.page(matrix).rendered(poppler: true)
        try Fidelity.expectMatch(pair, tolerance: 0.0005, label: "sliver \(matrix)")
    }

    @Test(
        "A rule thinner than a pixel drawn upright is one pixel thick where MuPDF draws it",
        arguments: ["150 0 0 0.001 20 100", "0.01 0 0 150 100 20", "-150 0 0 -0.3 170 100"])
    func uprightRule(_ matrix: String) throws {
        let pair = try Self.page(matrix).rendered()
        let without = try Self.page("1 0 0 1 -10 -10").rendered()
        #expect(Fidelity.inkedPixels(pair.theirs) > Fidelity.inkedPixels(without.theirs), "MuPDF draws the rule")
        try Fidelity.expectMatch(pair, tolerance: 0.0005, label: "rule \(matrix)")
    }

    /// poppler draws it; MuPDF does not. Which image sample a one-pixel rule shows differs from
    /// poppler's choice along part of its length, hence the tolerance (a missing rule is 0.4 %).
    @Test("A slanted rule thinner than a pixel is drawn one pixel thick, as poppler")
    func slantedRule() throws {
        let pair = try Self.page("100 100 100 100.01 20 20").rendered(poppler: true)
        let without = try Self.page("1 0 0 1 -10 -10").rendered(poppler: true)
        #expect(
            Fidelity.inkedPixels(pair.theirs) > Fidelity.inkedPixels(without.theirs) + 100, "poppler draws the rule")
        try Fidelity.expectMatch(pair, tolerance: 0.002, label: "slanted rule")
    }
}
