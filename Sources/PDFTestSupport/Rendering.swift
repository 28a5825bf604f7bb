import Foundation

/// Pages rendered by MuPDF (`mutool draw`, the rendering oracle) as RGB pixels.
public struct RenderedPage: Sendable {
    public var width: Int
    public var height: Int
    /// RGB, row by row from the top.
    public var pixels: [UInt8]
    public var dpi: Double

    /// Renders page `page` (from 1) of `path` at `dpi`.
    public static func render(_ path: String, page: Int, dpi: Double = 72, password: String? = nil) throws
        -> RenderedPage
    {
        let output = try TestPaths.temporaryDirectory("render") + "/page.ppm"
        let result = try Oracle.run(
            "mutool",
            ["draw", "-q", "-r", PDFFormat.number(dpi), "-c", "rgb", "-o", output]
                + (password.map { ["-p", $0] } ?? [])
                + [path, String(page)])
        guard result.status == 0 else { throw Oracle.OracleFailure(message: "mutool draw failed: \(result.errors)") }
        let data = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        // P6 header: magic, width, height, maximum, then binary RGB.
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < data.count {
            while index < data.count,
                data[index] == 0x20 || data[index] == 0x0A || data[index] == 0x0D || data[index] == 0x09
            { index += 1 }
            let start = index
            while index < data.count,
                !(data[index] == 0x20 || data[index] == 0x0A || data[index] == 0x0D || data[index] == 0x09)
            { index += 1 }
            fields.append(String(decoding: data[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]),
            data.count >= index + width * height * 3
        else { throw Oracle.OracleFailure(message: "mutool wrote no P6 image") }
        return RenderedPage(
            width: width, height: height, pixels: Array(data[index..<(index + width * height * 3)]), dpi: dpi)
    }

    /// The pixel rectangle (x0, y0 from the top-left, x1, y1 exclusive) of a rectangle in PDF points
    /// on a page whose crop box starts at (`originX`, `originY`) and is `pageHeight` points tall.
    public func pixelBox(
        x0: Double, y0: Double, x1: Double, y1: Double, pageHeight: Double, originX: Double = 0, originY: Double = 0
    )
        -> (x0: Int, y0: Int, x1: Int, y1: Int)
    {
        let scale = dpi / 72
        return (
            Int(((x0 - originX) * scale).rounded(.down)), Int(((pageHeight - (y1 - originY)) * scale).rounded(.down)),
            Int(((x1 - originX) * scale).rounded(.up)), Int(((pageHeight - (y0 - originY)) * scale).rounded(.up))
        )
    }

    /// The colour of pixel (`x`, `y`) counted from the top-left.
    public func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let index = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 3
        return (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
    }

    /// The colour at a point of PDF user space on an unrotated page `pageHeight` points tall.
    public func color(atX x: Double, y: Double, pageHeight: Double) -> (r: Int, g: Int, b: Int) {
        let scale = dpi / 72
        return pixel(Int(x * scale), Int((pageHeight - y) * scale))
    }

    /// The smallest pixel rectangle holding every position (x1, y1 inclusive), or nil for none.
    public static func bounds(of positions: [(x: Int, y: Int)]) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        guard let first = positions.first else { return nil }
        return positions.reduce((first.x, first.y, first.x, first.y)) {
            (min($0.0, $1.x), min($0.1, $1.y), max($0.2, $1.x), max($0.3, $1.y))
        }
    }

    /// The pixels that differ between two renderings of the same size, as (x, y) positions.
    public func differences(from other: RenderedPage, threshold: Int = 24) -> [(x: Int, y: Int)] {
        guard width == other.width, height == other.height else { return [(0, 0)] }
        var result: [(x: Int, y: Int)] = []
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                var delta = 0
                for channel in 0..<3 {
                    delta = max(delta, abs(Int(pixels[index + channel]) - Int(other.pixels[index + channel])))
                }
                if delta > threshold { result.append((x, y)) }
            }
        }
        return result
    }
}

enum PDFFormat {
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
