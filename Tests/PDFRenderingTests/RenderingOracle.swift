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

    var cropBox: PDFRectangle { PDFRectangle(x0: 0, y0: 0, x1: width, y1: height) }
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

extension OracleImage {
    /// Our rendering as RGB over white.
    init(_ image: RenderedImage) { self.init(width: image.width, height: image.height, pixels: Fidelity.rgb(image)) }
}

extension Fidelity {
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

    /// Compares our image with MuPDF's; nil when the sizes differ.
    static func compare(_ ours: RenderedImage, _ theirs: OracleImage, threshold: Int = 64) -> Comparison? {
        compare(OracleImage(ours), theirs, threshold: threshold)
    }
}

extension HandPage {
    /// `list` drawn by ``PageRenderer`` (with the page's crop box unless `cropBox` is given) and the
    /// page drawn by MuPDF, or poppler, at `dpi`, both turned `rotation` degrees clockwise, for
    /// ``Fidelity/expectMatch(_:tolerance:label:sourceLocation:)``.
    func rendered(
        _ list: DisplayList, dpi: Double = 72, rotation: Int = 0, pageRotation: Int = 0, cropBox: PDFRectangle? = nil,
        poppler: Bool = false
    ) throws -> RenderingPair {
        let theirs = poppler ? try self.poppler(dpi: dpi) : try mutool(dpi: dpi, rotation: rotation)
        var options = RenderOptions()
        options.dpi = dpi
        options.rotation = rotation
        let ours = PageRenderer().render(
            list, cropBox: cropBox ?? self.cropBox, pageRotation: pageRotation, options: options)
        return RenderingPair(
            ours: OracleImage(ours), theirs: theirs, oracle: poppler ? "poppler" : "MuPDF", pdf: bytes(), dpi: dpi,
            rotation: rotation, saveOurs: { try Data(ours.pngData()).write(to: URL(fileURLWithPath: $0)) })
    }

    /// The page drawn by ``DocumentRenderer`` (whose problems are then expected to be none, unless
    /// `checkingWarnings` is false) and by MuPDF, or poppler, at `dpi`.
    func rendered(
        dpi: Double = 72, annotations: GraphicsOptions.Annotations = .display, poppler: Bool = false,
        checkingWarnings: Bool = true
    ) throws -> RenderingPair {
        let pdf = bytes()
        let renderer = DocumentRenderer(document: try PDFDocument(bytes: pdf), annotations: annotations)
        var options = RenderOptions()
        options.dpi = dpi
        let (ours, warnings) = renderer.render(pageAt: 0, options: options)
        let theirs = poppler ? try self.poppler(dpi: dpi) : try mutool(dpi: dpi)
        return RenderingPair(
            ours: OracleImage(ours), theirs: theirs, oracle: poppler ? "poppler" : "MuPDF",
            warnings: checkingWarnings ? warnings : nil, pdf: pdf, dpi: dpi,
            saveOurs: { try Data(ours.pngData()).write(to: URL(fileURLWithPath: $0)) })
    }
}

/// The same path as display-list geometry and as content-stream operators.
struct TestPath {
    var path = Path()
    var operators = ""

    mutating func move(_ x: Double, _ y: Double) {
        path.elements.append(.move(PDFPoint(x, y)))
        operators += "\(x) \(y) m "
    }

    mutating func line(_ x: Double, _ y: Double) {
        path.elements.append(.line(PDFPoint(x, y)))
        operators += "\(x) \(y) l "
    }

    mutating func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) {
        path.elements.append(.curve(PDFPoint(x1, y1), PDFPoint(x2, y2), PDFPoint(x3, y3)))
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
