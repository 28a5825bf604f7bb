import Foundation
import PDFCore
import PDFGraphics
import PDFRendering
import PDFTestSupport
import Testing

/// A one-page PDF written by hand: the same drawing as a display list built in a test, for MuPDF.
struct HandPage {
    enum Object {
        case body(String)
        case stream(String, [UInt8])
    }

    var width = 200.0
    var height = 200.0
    var content: String
    /// The page's `/Resources` (objects from 5 on may be referred to).
    var resources = "<<>>"
    /// Objects numbered 5, 6, … in order.
    var objects: [Object] = []
    /// More page entries (`/Rotate 90`, `/CropBox [...]`).
    var pageEntries = ""
    /// More catalog entries (`/OCProperties …`).
    var catalogEntries = ""

    func bytes() -> [UInt8] {
        var pdf = RawPDF()
        pdf.object(1, "<< /Type /Catalog /Pages 2 0 R \(catalogEntries) >>")
        pdf.object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        pdf.object(
            3,
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Contents 4 0 R /Resources \(resources) \(pageEntries) >>"
        )
        pdf.stream(4, dictionary: "", data: Array(content.utf8))
        for (index, object) in objects.enumerated() {
            switch object {
            case .body(let body): pdf.object(5 + index, body)
            case .stream(let dictionary, let data): pdf.stream(5 + index, dictionary: dictionary, data: data)
            }
        }
        pdf.xrefTable(size: 5 + objects.count, trailer: "<< /Size \(5 + objects.count) /Root 1 0 R >>")
        return pdf.bytes
    }

    /// Writes the file and returns its path.
    func write() throws -> String {
        let path = try TestPaths.temporaryDirectory("backend") + "/page.pdf"
        try Data(bytes()).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// MuPDF's rendering (`mutool draw`), with an extra clockwise rotation.
    func mutool(dpi: Double = 72, rotation: Int = 0) throws -> OracleImage {
        let path = try write()
        if rotation == 0 {
            let page = try RenderedPage.render(path, page: 1, dpi: dpi)
            return OracleImage(width: page.width, height: page.height, pixels: page.pixels)
        }
        let output = path + ".ppm"
        let result = try Oracle.run(
            "mutool", ["draw", "-q", "-r", String(dpi), "-R", String(rotation), "-c", "rgb", "-o", output, path, "1"])
        guard result.status == 0 else { throw TestFailure("mutool draw failed: \(result.errors)") }
        return try PPM.read(output, dpi: dpi)
    }

    /// poppler's rendering (`pdftoppm`), the second oracle where MuPDF is known to differ.
    func poppler(dpi: Double = 72) throws -> OracleImage {
        let path = try write()
        let result = try Oracle.run("pdftoppm", ["-r", String(dpi), "-singlefile", path, path + ".out"])
        guard result.status == 0 else { throw TestFailure("pdftoppm failed: \(result.errors)") }
        return try PPM.read(path + ".out.ppm")
    }

    var cropBox: Rect { Rect(x0: 0, y0: 0, x1: width, y1: height) }
}

/// RGB pixels from an oracle, rows from the top.
struct OracleImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads binary PPM (P6) files.
enum PPM {
    static func read(_ path: String, dpi: Double = 72) throws -> OracleImage {
        let data = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < data.count {
            while index < data.count, [0x20, 0x0A, 0x0D, 0x09].contains(data[index]) { index += 1 }
            let start = index
            while index < data.count, ![0x20, 0x0A, 0x0D, 0x09].contains(data[index]) { index += 1 }
            fields.append(String(decoding: data[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
            data.count >= index + width * height * 3
        else { throw TestFailure("no P6 image in \(path)") }
        return OracleImage(width: width, height: height, pixels: Array(data[index..<(index + width * height * 3)]))
    }
}

/// The project's fidelity measure: after a 3×3 box blur of both images, the share of pixels that
/// differ by more than 64/255 in some channel.
enum Fidelity {
    struct Comparison: CustomStringConvertible {
        var differing: Int
        var total: Int
        var fraction: Double { total == 0 ? 1 : Double(differing) / Double(total) }
        var description: String {
            "\(differing) of \(total) pixels differ (\((fraction * 1000).rounded() / 10) %)"
        }
    }

    /// Our pixels as RGB over white (they are premultiplied).
    static func rgb(_ image: RenderedImage) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for pixel in 0..<(image.width * image.height) {
            let transparency = 255 - Int(image.rgba[pixel * 4 + 3])
            for channel in 0..<3 {
                rgb[pixel * 3 + channel] = UInt8(min(255, Int(image.rgba[pixel * 4 + channel]) + transparency))
            }
        }
        return rgb
    }

    static func blurred(_ pixels: [UInt8], width: Int, height: Int) -> [Int] {
        var result = [Int](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    var sum = 0
                    var count = 0
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let (sx, sy) = (x + dx, y + dy)
                            guard sx >= 0, sy >= 0, sx < width, sy < height else { continue }
                            sum += Int(pixels[(sy * width + sx) * 3 + channel])
                            count += 1
                        }
                    }
                    result[(y * width + x) * 3 + channel] = sum / count
                }
            }
        }
        return result
    }

    /// Compares our image with MuPDF's; nil when the sizes differ.
    static func compare(_ ours: RenderedImage, _ theirs: OracleImage, threshold: Int = 64) -> Comparison? {
        guard ours.width == theirs.width, ours.height == theirs.height else { return nil }
        let a = blurred(rgb(ours), width: ours.width, height: ours.height)
        let b = blurred(theirs.pixels, width: theirs.width, height: theirs.height)
        var differing = 0
        for pixel in 0..<(ours.width * ours.height) {
            for channel in 0..<3 where abs(a[pixel * 3 + channel] - b[pixel * 3 + channel]) > threshold {
                differing += 1
                break
            }
        }
        return Comparison(differing: differing, total: ours.width * ours.height)
    }

    /// How many pixels of MuPDF's image are not white: a drawing that shows nothing proves nothing.
    static func inkedPixels(_ page: OracleImage) -> Int {
        (0..<(page.width * page.height)).filter { pixel in
            (0..<3).contains { page.pixels[pixel * 3 + $0] < 200 }
        }.count
    }

    /// Renders `list` and `page` (MuPDF) and expects them to match within `tolerance`; saves both
    /// as PNG when they do not, and prints where.
    @discardableResult
    static func expectMatch(
        _ list: DisplayList, _ page: HandPage, dpi: Double = 72, rotation: Int = 0, pageRotation: Int = 0,
        tolerance: Double = 0.02, cropBox: Rect? = nil, poppler: Bool = false, label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Comparison? {
        let theirs = poppler ? try page.poppler(dpi: dpi) : try page.mutool(dpi: dpi, rotation: rotation)
        var options = RenderOptions()
        options.dpi = dpi
        options.rotation = rotation
        let ours = PageRenderer().render(
            list, cropBox: cropBox ?? page.cropBox, pageRotation: pageRotation, options: options)
        #expect(
            Fidelity.inkedPixels(theirs) > 50, "\(label): MuPDF drew next to nothing", sourceLocation: sourceLocation)
        guard let comparison = compare(ours, theirs) else {
            Issue.record(
                "\(label): sizes differ: ours \(ours.width)×\(ours.height), MuPDF \(theirs.width)×\(theirs.height)",
                sourceLocation: sourceLocation)
            return nil
        }
        print("\(label): \(comparison)")
        if comparison.fraction > tolerance || ProcessInfo.processInfo.environment["BACKEND_DUMP"] != nil {
            let directory = try TestPaths.temporaryDirectory("backend-diff")
            try Data(ours.pngData()).write(to: URL(fileURLWithPath: directory + "/ours.png"))
            try Data(page.bytes()).write(to: URL(fileURLWithPath: directory + "/page.pdf"))
            _ = try? Oracle.run(
                "mutool",
                [
                    "draw", "-q", "-r", String(dpi), "-R", String(rotation), "-o", directory + "/mupdf.png",
                    directory + "/page.pdf", "1",
                ])
            _ = try? Oracle.run(
                "pdftoppm", ["-r", String(dpi), "-png", "-singlefile", directory + "/page.pdf", directory + "/poppler"])
            print("\(label): images in \(directory)")
        }
        #expect(comparison.fraction <= tolerance, "\(label): \(comparison)", sourceLocation: sourceLocation)
        return comparison
    }
}

/// The same path as display-list geometry and as content-stream operators.
struct TestPath {
    var path = Path()
    var operators = ""

    mutating func move(_ x: Double, _ y: Double) {
        path.elements.append(.move(Point(x, y)))
        operators += "\(x) \(y) m "
    }

    mutating func line(_ x: Double, _ y: Double) {
        path.elements.append(.line(Point(x, y)))
        operators += "\(x) \(y) l "
    }

    mutating func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) {
        path.elements.append(.curve(Point(x1, y1), Point(x2, y2), Point(x3, y3)))
        operators += "\(x1) \(y1) \(x2) \(y2) \(x3) \(y3) c "
    }

    mutating func close() {
        path.elements.append(.close)
        operators += "h "
    }

    static func rectangle(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> TestPath {
        var result = TestPath()
        result.path.rectangle(x, y, width, height)
        result.operators = "\(x) \(y) \(width) \(height) re "
        return result
    }

    /// A circle of four Bézier arcs.
    static func circle(_ cx: Double, _ cy: Double, _ r: Double) -> TestPath {
        let k = 0.5523 * r
        var result = TestPath()
        result.move(cx + r, cy)
        result.curve(cx + r, cy + k, cx + k, cy + r, cx, cy + r)
        result.curve(cx - k, cy + r, cx - r, cy + k, cx - r, cy)
        result.curve(cx - r, cy - k, cx - k, cy - r, cx, cy - r)
        result.curve(cx + k, cy - r, cx + r, cy - k, cx + r, cy)
        result.close()
        return result
    }

    /// A five-pointed star drawn in one stroke (its centre is inside twice).
    static func star(_ cx: Double, _ cy: Double, _ r: Double) -> TestPath {
        var result = TestPath()
        for k in 0..<5 {
            let angle = Double.pi / 2 + Double(k) * 4 * Double.pi / 5
            let (x, y) = (cx + r * cos(angle), cy + r * sin(angle))
            if k == 0 { result.move(x, y) } else { result.line(x, y) }
        }
        result.close()
        return result
    }
}

extension DrawState {
    static func with(alpha: Double = 1, blend: BlendMode = .normal, mask: SoftMask? = nil) -> DrawState {
        var state = DrawState()
        state.alpha = alpha
        state.blendMode = blend
        state.softMask = mask
        return state
    }
}
