import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// `PageDifference`: changed pixels grouped into regions, mapped to user space, and the picture.
@Suite("Page differences")
struct PageDifferenceTests {
    /// A white image with black rectangles (x, y, width, height in pixels from the top-left).
    static func image(_ width: Int, _ height: Int, rectangles: [(Int, Int, Int, Int)] = []) -> RenderedImage {
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for (x0, y0, w, h) in rectangles {
            for y in y0..<(y0 + h) {
                for x in x0..<(x0 + w) {
                    let index = (y * width + x) * 4
                    (rgba[index], rgba[index + 1], rgba[index + 2]) = (0, 0, 0)
                }
            }
        }
        return RenderedImage(width: width, height: height, rgba: rgba)
    }

    /// User space to pixels of an unrotated `width` × `height` page at 72 dpi.
    static func matrix(_ width: Double, _ height: Double) -> PDFMatrix {
        PageRenderer.deviceMatrix(
            cropBox: PDFRectangle(x0: 0, y0: 0, x1: width, y1: height), pageRotation: 0, options: RenderOptions())
    }

    @Test("identical images have no region; the picture is the page faded")
    func identical() {
        let page = Self.image(200, 100, rectangles: [(10, 10, 30, 30)])
        let difference = PageDifference(original: page, current: page, userToPixels: Self.matrix(200, 100))
        #expect(difference.isEmpty && difference.regions.isEmpty && difference.changedShare == 0)
        #expect((difference.width, difference.height) == (200, 100))
        let picture = difference.image(original: page, current: page)
        #expect((picture.width, picture.height) == (200, 100))
        // Black at 30 % over white; white stays white.
        #expect(picture.pixel(20, 20) == (179, 179, 179, 255))
        #expect(picture.pixel(100, 50) == (255, 255, 255, 255))
    }

    @Test("one square: one region at its place in pixels and in user space, its share of the page")
    func oneSquare() {
        let before = Self.image(200, 100)
        let after = Self.image(200, 100, rectangles: [(50, 20, 20, 10)])
        let difference = PageDifference(original: before, current: after, userToPixels: Self.matrix(200, 100))
        #expect(difference.changedPixels == 200)
        #expect(difference.changedShare == 0.01)
        #expect(difference.regions.map(\.pixels) == [.init(x: 50, y: 20, width: 20, height: 10)])
        // y up in user space: pixel rows 20 ..< 30 of a 100 pt page are y 70 … 80.
        #expect(difference.regions.map(\.userSpace) == [PDFRectangle(x0: 50, y0: 70, x1: 70, y1: 80)])

        let picture = difference.image(original: before, current: after)
        #expect(picture.pixel(60, 25) == (230, 0, 0, 255), "changed pixels are red")
        #expect(picture.pixel(48, 25) == (0, 90, 230, 255), "the outline lies two pixels outside")
        #expect(picture.pixel(49, 25) == (0, 90, 230, 255))
        #expect(picture.pixel(47, 25) == (255, 255, 255, 255))
        #expect(picture.pixel(60, 31) == (0, 90, 230, 255) && picture.pixel(60, 32) == (255, 255, 255, 255))
    }

    @Test("differences within the tolerance do not count; beyond it they do")
    func tolerance() {
        let before = Self.image(40, 40)
        var faint = before
        var strong = before
        for index in stride(from: 0, to: faint.rgba.count, by: 4) {
            faint.rgba[index] = 255 - 16
            strong.rgba[index] = 255 - 17
        }
        let matrix = Self.matrix(40, 40)
        #expect(PageDifference(original: before, current: faint, userToPixels: matrix).isEmpty)
        let changed = PageDifference(original: before, current: strong, userToPixels: matrix)
        #expect(
            changed.changedShare == 1 && changed.regions.map(\.pixels) == [.init(x: 0, y: 0, width: 40, height: 40)])
        #expect(PageDifference(original: before, current: strong, userToPixels: matrix, tolerance: 20).isEmpty)
    }

    @Test("separate changes are separate regions; touching cells one region")
    func separateRegions() {
        let before = Self.image(300, 200)
        // Two marks 4 px apart (neighbouring cells: one region), one far away.
        let after = Self.image(300, 200, rectangles: [(20, 20, 10, 10), (34, 20, 6, 6), (200, 150, 30, 20)])
        let difference = PageDifference(original: before, current: after, userToPixels: Self.matrix(300, 200))
        #expect(
            difference.regions.map(\.pixels) == [
                .init(x: 20, y: 20, width: 20, height: 10), .init(x: 200, y: 150, width: 30, height: 20),
            ])
    }

    @Test("scattered changes give at most the regions asked for, and every changed pixel is in one")
    func boundedRegions() {
        let before = Self.image(640, 480)
        var dots: [(Int, Int, Int, Int)] = []
        // 156 dots, each in a cell of its own: more regions than asked for.
        for y in stride(from: 3, to: 480, by: 40) {
            for x in stride(from: 5, to: 640, by: 50) { dots.append((x, y, 2, 2)) }
        }
        let after = Self.image(640, 480, rectangles: dots)
        for maximum in [1, 8, 64] {
            let difference = PageDifference(
                original: before, current: after, userToPixels: Self.matrix(640, 480), maximumRegions: maximum)
            #expect(difference.changedPixels == dots.count * 4)
            #expect(difference.regions.count <= maximum && !difference.regions.isEmpty)
            for (x, y, _, _) in dots {
                #expect(
                    difference.regions.contains { region in
                        let box = region.pixels
                        return x >= box.x && y >= box.y && x + 2 <= box.x + box.width && y + 2 <= box.y + box.height
                    }, "dot at \(x), \(y) with at most \(maximum) regions")
            }
            for (index, region) in difference.regions.enumerated() {
                for other in difference.regions[(index + 1)...] {
                    let (a, b) = (region.pixels, other.pixels)
                    let apart =
                        a.x + a.width < b.x || b.x + b.width < a.x || a.y + a.height < b.y || b.y + b.height < a.y
                    #expect(apart, "regions \(a) and \(b) touch")
                }
            }
        }
    }

    @Test("pages of different sizes: the area only one has counts as changed; a missing page is all changed")
    func differentSizes() {
        let short = Self.image(100, 80)
        let tall = Self.image(100, 120)
        let difference = PageDifference(original: short, current: tall, userToPixels: Self.matrix(100, 120))
        #expect((difference.width, difference.height) == (100, 120))
        #expect(difference.changedPixels == 100 * 40)
        #expect(difference.regions.map(\.pixels) == [.init(x: 0, y: 80, width: 100, height: 40)])
        #expect(difference.regions.map(\.userSpace) == [PDFRectangle(x0: 0, y0: 0, x1: 100, y1: 40)])
        let picture = difference.image(original: short, current: tall)
        #expect(picture.pixel(50, 100) == (255, 226, 226, 255), "only one page there: pale red")

        let removed = PageDifference(
            original: tall, current: RenderedImage(width: 0, height: 0, rgba: []), userToPixels: Self.matrix(100, 120))
        #expect(removed.changedShare == 1)
        #expect(removed.regions.map(\.userSpace) == [PDFRectangle(x0: 0, y0: 0, x1: 100, y1: 120)])
        // A failed render (no bytes) is no page either.
        let failed = PageDifference(
            original: tall, current: RenderedImage(width: 100, height: 120, rgba: []),
            userToPixels: Self.matrix(100, 120))
        #expect(failed.changedShare == 1)
    }

    /// A one-page file: media box `[100 200 400 600]` (an origin away from 0), `/Rotate rotation`,
    /// a grey mark in a corner, and when `changed` a blue rectangle at (150, 250), 40 × 30.
    static func page(rotation: Int, changed: Bool) throws -> PDFDocument {
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3, "<< /Type /Page /Parent 2 0 R /MediaBox [100 200 400 600] /Rotate \(rotation) /Contents 4 0 R >>")
        let content = "0.5 g 360 560 30 30 re f" + (changed ? " 0 0 1 rg 150 250 40 30 re f" : "")
        pdf.stream(4, dictionary: "", data: Array(content.utf8))
        pdf.xrefTable(size: 5, trailer: "<< /Size 5 /Root 1 0 R >>")
        return try PDFDocument(bytes: pdf.bytes)
    }

    @Test(
        "a rotated page with its media box away from the origin: the region maps back to the rectangle drawn",
        arguments: [(0, 72.0), (90, 72.0), (180, 100.0), (270, 144.0)])
    func rotatedPage(_ rotation: Int, _ dpi: Double) throws {
        var options = RenderOptions()
        options.dpi = dpi
        let before = try Self.page(rotation: rotation, changed: false)
        let after = try Self.page(rotation: rotation, changed: true)
        let original = DocumentRenderer(document: before).render(pageAt: 0, options: options).image
        let current = DocumentRenderer(document: after).render(pageAt: 0, options: options).image
        let scale = dpi / 72
        let turned = rotation % 180 != 0
        #expect(current.width == Int((scale * (turned ? 400 : 300)).rounded(.up)))
        let difference = PageDifference(
            original: original, current: current, page: after.pages[0], options: options)
        try #require(difference.regions.count == 1, "\(difference.regions)")
        let box = difference.regions[0].userSpace
        // Within a pixel of the rectangle (edge pixels barely covered may stay within the tolerance).
        let pixel = 1 / scale + 0.001
        #expect(abs(box.x0 - 150) <= pixel && abs(box.y0 - 250) <= pixel, "\(box)")
        #expect(abs(box.x1 - 190) <= pixel && abs(box.y1 - 280) <= pixel, "\(box)")
        #expect(abs(difference.changedShare - 40 * 30 / (300 * 400)) < 0.002)
    }
}
