import Foundation
import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// Page geometry (crop box, rotation, resolution), tiles, concurrency and the output encoders.
@Suite("Page setup, tiles and concurrency")
struct PageSetupTests {
    /// An asymmetric drawing, so that any wrong flip or turn shows: a gradient, an image, strokes.
    static func drawing(shift: Double = 0) -> (list: DisplayList, page: HandPage) {
        let corner = TestPath.rectangle(10 + shift, 10, 60, 30)
        let arrow = TestPath.star(140, 200, 40 + shift / 4)
        let shading = Shading(
            geometry: .axial(start: PDFPoint(0, 0), end: PDFPoint(200, 120), t0: 0, t1: 1, extend: (true, true)),
            color: { t in RGB(t, 0.5, 1 - t) })
        let disc = TestPath.circle(60, 170, 40)
        var style = StrokeStyle()
        style.width = 4
        style.dash = [8, 4]
        var pixels: [UInt8] = []
        for i in 0..<64 {
            let red = UInt8(i * 4)
            pixels += [red, 255 - red, 90, 255]
        }
        let image = ImageSource(decoded: DecodedImage(width: 8, height: 8, rgba: pixels))
        let list = DisplayList(items: [
            .fill(corner.path, .nonZero, .color(RGB(1, 0, 0)), ctm: .identity, state: DrawState()),
            .fill(arrow.path, .evenOdd, .color(RGB(0, 0.5, 0)), ctm: .identity, state: DrawState()),
            .fill(disc.path, .nonZero, .shading(shading, matrix: .identity), ctm: .identity, state: DrawState()),
            .stroke(corner.path, style, .color(.black), ctm: PDFMatrix(1, 0, 0, 1, 20, 80), state: DrawState()),
            .image(image, ctm: PDFMatrix(50, 0, 0, 40, 120, 60), state: .with(alpha: 0.8)),
        ])
        var rgb: [UInt8] = []
        for index in stride(from: 0, to: pixels.count, by: 4) { rgb += pixels[index..<(index + 3)] }
        let page = HandPage(
            width: 200, height: 260,
            content: """
                1 0 0 rg \(corner.operators) f 0 0.5 0 rg \(arrow.operators) f*
                /Pattern cs /P scn \(disc.operators) f
                q 1 0 0 1 20 80 cm 4 w [8 4] 0 d 0 0 0 RG \(corner.operators) S Q
                q /A gs 50 0 0 40 120 60 cm /I Do Q
                """,
            resources: """
                << /ExtGState << /A << /ca 0.8 >> >> /XObject << /I 5 0 R >>
                /Pattern << /P << /PatternType 2 /Shading << /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 200 120]
                /Extend [true true] /Function << /FunctionType 2 /Domain [0 1] /C0 [0 0.5 1] /C1 [1 0.5 0] /N 1 >> >> >> >> >>
                """,
            objects: [
                .stream(
                    "/Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceRGB /BitsPerComponent 8", rgb)
            ])
        return (list, page)
    }

    @Test(
        "Page /Rotate, extra rotation and resolution give MuPDF's size and pixels",
        arguments: [(0, 0, 72.0), (90, 0, 72.0), (0, 180, 100.0), (270, 0, 150.0), (90, 180, 60.0), (180, 90, 72.0)])
    func rotation(_ pageRotation: Int, _ extra: Int, _ dpi: Double) throws {
        var (list, page) = Self.drawing()
        page.pageEntries = "/Rotate \(pageRotation)"
        try Fidelity.expectMatch(
            page.rendered(list, dpi: dpi, rotation: extra, pageRotation: pageRotation),
            label: "rotate \(pageRotation) + \(extra) at \(dpi) dpi")
    }

    @Test("A crop box shows only its part of the page, as MuPDF does")
    func cropBox() throws {
        var (list, page) = Self.drawing()
        page.pageEntries = "/CropBox [15.5 30 190 230] /Rotate 90"
        try Fidelity.expectMatch(
            page.rendered(list, dpi: 96, pageRotation: 90, cropBox: PDFRectangle(x0: 15.5, y0: 30, x1: 190, y1: 230)),
            label: "crop box")
    }

    /// Meshes, a tiling pattern, soft masks, a group and a stencil mask, for tiles only.
    static func richDrawing() -> DisplayList {
        let disc = TestPath.circle(100, 130, 70)
        let cell = TransparencyRenderingTests.cell()
        let tiling = TilingPattern(
            cell: DisplayList(items: cell.items), bbox: PDFRectangle(x0: 0, y0: 0, x1: 20, y1: 20), xStep: 23,
            yStep: 21,
            matrix: PDFMatrix(0.9, 0.3, -0.3, 0.9, 5, 5))
        let triangles = Shading(
            geometry: .triangles([
                MeshTriangle(
                    points: (PDFPoint(10, 10), PDFPoint(190, 40), PDFPoint(60, 250)),
                    colors: (RGB(1, 0, 0), RGB(0, 1, 0), RGB(0, 0, 1)))
            ]), color: { _ in .black })
        let mask = SoftMask(
            kind: .luminosity,
            group: DisplayList(items: [
                .shading(
                    Shading(
                        geometry: .radial(
                            start: PDFPoint(100, 130), startRadius: 0, end: PDFPoint(100, 130), endRadius: 90, t0: 0,
                            t1: 1,
                            extend: (true, true)), color: { t in RGB(1 - t, 1 - t, 1 - t) }), ctm: .identity,
                    state: DrawState())
            ]), bounds: nil, backdrop: .black, transfer: { $0 * $0 })
        var group = TransparencyGroup()
        group.state = .with(alpha: 0.7, blend: .multiply)
        let stencil = ImageSource(
            decoded: DecodedImage(width: 4, height: 4, rgba: (0..<16).flatMap { [0, 0, 0, $0 % 3 == 0 ? 255 : 0] }))
        return DisplayList(items: [
            .shading(triangles, ctm: .identity, state: DrawState()),
            .fill(disc.path, .nonZero, .tiling(tiling), ctm: .identity, state: .with(mask: mask)),
            .beginGroup(group),
            .fill(
                TestPath.star(100, 100, 80).path, .evenOdd, .color(RGB(0.2, 0.8, 0.9)), ctm: .identity,
                state: DrawState()),
            .endGroup,
            .stencilMask(
                stencil, .color(RGB(0.5, 0, 0.5)), ctm: PDFMatrix(60, 10, -10, 60, 120, 180), state: DrawState()),
        ])
    }

    /// Paths, colours, gradients, alpha and upscaled images give exactly the full page's pixels in
    /// a tile. Pixman's transformed sampling (rotated patterns)
    /// depend slightly on where the drawing starts, so for those a tile may differ by a level or
    /// two at some pixels: that is measured and bounded.
    @Test(
        "A tile is the same window of the full render: exactly, or within two levels for rotated patterns",
        arguments: [(0, 72.0, false), (90, 133.0, false), (270, 200.0, false), (0, 96.0, true), (180, 150.0, true)])
    func tiles(_ rotation: Int, _ dpi: Double, _ rich: Bool) throws {
        let (simpleList, page) = Self.drawing()
        let list = rich ? Self.richDrawing() : simpleList
        var options = RenderOptions()
        options.dpi = dpi
        options.rotation = rotation
        let renderer = PageRenderer()
        let full = renderer.render(list, cropBox: page.cropBox, pageRotation: 0, options: options)
        let windows = [(0, 0, 64, 64), (37, 51, 80, 64), (full.width - 50, full.height - 30, 50, 30), (100, 13, 1, 97)]
        for (x, y, width, height) in windows {
            options.region = (x, y, width, height)
            let tile = renderer.render(list, cropBox: page.cropBox, pageRotation: 0, options: options)
            try #require(tile.width == width && tile.height == height && tile.rgba.count == width * height * 4)
            var differing = 0
            var largest = 0
            for row in 0..<height {
                for column in 0..<width {
                    var delta = 0
                    for channel in 0..<4 {
                        let a = Int(full.rgba[((y + row) * full.width + x + column) * 4 + channel])
                        let b = Int(tile.rgba[(row * width + column) * 4 + channel])
                        delta = max(delta, abs(a - b))
                    }
                    if delta > 0 { differing += 1 }
                    largest = max(largest, delta)
                }
            }
            let where_ = "tile \(x),\(y) \(width)×\(height) at \(rotation)° \(dpi) dpi"
            if rich {
                print("\(where_) (meshes, patterns): \(differing) pixels differ, by at most \(largest)")
                #expect(
                    largest <= 2 && differing * 20 <= width * height,
                    "\(where_): \(differing) pixels, \(largest) levels")
            } else {
                #expect(differing == 0, "\(where_): \(differing) pixels differ, by at most \(largest)")
            }
        }
    }

    @Test("Eight pages rendered from four tasks at once equal the same pages rendered one after another")
    func concurrentRenders() async throws {
        let pages = (0..<8).map { Self.drawing(shift: Double($0) * 7) }
        let renderer = PageRenderer()
        var settings = RenderOptions()
        settings.dpi = 110
        let options = settings
        let sequential = pages.map {
            renderer.render($0.list, cropBox: $0.page.cropBox, pageRotation: 0, options: options).rgba
        }
        let concurrent = await withTaskGroup(of: [(Int, [UInt8])].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    stride(from: worker, to: 8, by: 4).map { index in
                        let page = pages[index]
                        return (
                            index,
                            renderer.render(page.list, cropBox: page.page.cropBox, pageRotation: 0, options: options)
                                .rgba
                        )
                    }
                }
            }
            var results = [[UInt8]](repeating: [], count: 8)
            for await batch in group { for (index, bytes) in batch { results[index] = bytes } }
            return results
        }
        for index in 0..<8 {
            #expect(concurrent[index] == sequential[index], "page \(index) differs")
        }
        #expect(Set(sequential.map { $0.hashValue }).count == 8, "the pages are different drawings")
    }

    @Test("PNG and JPEG output decode (PIL) to the rendered pixels")
    func encoders() throws {
        let (list, page) = Self.drawing()
        var options = RenderOptions()
        options.background = nil
        let image = PageRenderer().render(list, cropBox: page.cropBox, pageRotation: 0, options: options)
        let directory = try TestPaths.temporaryDirectory("backend-encoders")
        try Data(image.pngData()).write(to: URL(fileURLWithPath: directory + "/page.png"))
        try Data(image.jpegData(quality: 90)).write(to: URL(fileURLWithPath: directory + "/page.jpg"))
        let script = """
            import sys
            from PIL import Image
            png = Image.open(sys.argv[1]); jpg = Image.open(sys.argv[2])
            print(png.format, png.mode, png.size[0], png.size[1], jpg.format, jpg.mode, jpg.size[0], jpg.size[1])
            for (x, y) in [(30, 240), (130, 60), (0, 0)]:
                print(*png.convert('RGBA').getpixel((x, y)), *jpg.convert('RGB').getpixel((x, y)))
            """
        let result = try Oracle.run("python3", ["-c", script, directory + "/page.png", directory + "/page.jpg"])
        let lines = result.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        try #require(lines.count == 4, "PIL: \(result.errors)")
        #expect(lines[0] == ["PNG", "RGBA", "200", "260", "JPEG", "RGB", "200", "260"])
        for (index, (x, y)) in [(30, 240), (130, 60), (0, 0)].enumerated() {
            let values = lines[index + 1].compactMap { Int($0) }
            let ours = image.pixel(x, y)
            let alpha = Int(ours.a)
            // PNG is straight alpha; ours is premultiplied.
            let straight = [ours.r, ours.g, ours.b].map { alpha == 0 ? 0 : (Int($0) * 255 + alpha / 2) / alpha }
            #expect(values[3] == alpha)
            if alpha > 0 { for channel in 0..<3 { #expect(abs(values[channel] - straight[channel]) <= 2) } }
            // JPEG is over white, lossy.
            for channel in 0..<3 {
                let overWhite = Int([ours.r, ours.g, ours.b][channel]) + 255 - alpha
                #expect(abs(values[4 + channel] - overWhite) <= 24, "JPEG pixel \(x),\(y)")
            }
        }
    }
}
