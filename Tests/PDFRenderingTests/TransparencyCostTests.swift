import Foundation
import PDFCore
import PDFRendering
import PDFTestSupport
import Testing

/// Transparency that costs what it covers: a form of hundreds of small groups, each with a
/// luminosity soft mask, renders as MuPDF does while its masks' surfaces add up to what the groups
/// cover, not to a page each.
@Suite("Soft masks cost their region, not the page")
struct TransparencyCostTests {
    /// `columns` × `rows` groups of 24×40 pt, each masked by a luminosity group of its own.
    static func page(columns: Int, rows: Int) -> HandPage {
        var objects: [HandPage.Object] = []
        var names: [String] = []
        var calls = ""
        for column in 0..<columns {
            for row in 0..<rows {
                let (x, y) = (20 + column * 28, 20 + row * 50)
                let group = 5 + objects.count
                let mask = group + 1
                let bbox = "[\(x) \(y) \(x + 24) \(y + 40)]"
                let transparency = "/Group << /S /Transparency /CS /DeviceRGB >>"
                objects.append(
                    .stream(
                        "/Type /XObject /Subtype /Form /BBox \(bbox) \(transparency) /Resources << /ExtGState << /M << /SMask << /S /Luminosity /G \(mask) 0 R >> >> >> >>",
                        Array("/M gs 0.8 0.1 0.1 rg \(x) \(y) 24 40 re f".utf8)))
                objects.append(
                    .stream(
                        "/Type /XObject /Subtype /Form /BBox \(bbox) \(transparency)",
                        Array("0.\((column + row) % 10) g \(x) \(y) 24 40 re f 1 g \(x + 6) \(y + 10) 12 20 re f".utf8))
                )
                names.append("/G\(group) \(group) 0 R")
                calls += "/G\(group) Do\n"
            }
        }
        return HandPage(
            width: 612, height: 792, content: calls, resources: "<< /XObject << \(names.joined(separator: " ")) >> >>",
            objects: objects)
    }

    @Test("300 groups with luminosity masks: MuPDF's picture, masks no larger than their groups")
    func manyMaskedGroups() throws {
        let page = Self.page(columns: 20, rows: 15)
        let pair = try page.rendered()
        try Fidelity.expectMatch(pair, tolerance: 0.005, label: "300 masked groups")
        let document = try PDFDocument(bytes: page.bytes())
        let image = DocumentRenderer(document: document).render(pageAt: 0).image
        // Each mask covers its 24×40 pt group (at most 26×42 pixels with the edges): a page each
        // would be 300 × 612 × 792 pixels.
        #expect(image.maskPixels > 0)
        #expect(image.maskPixels <= 300 * 26 * 42, "\(image.maskPixels) mask pixels")
    }
}
