import Foundation
public import Testing

/// RGB pixels, rows from the top: an oracle's rendering, or ours over white.
public struct OracleImage: Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// One page drawn by us and by an oracle at the same resolution, with what it takes to look at
/// both when they differ.
public struct RenderingPair {
    /// Our rendering, RGB over white.
    public var ours: OracleImage
    /// The oracle's rendering.
    public var theirs: OracleImage
    /// The oracle's name in messages ("MuPDF", "poppler").
    public var oracle: String
    /// The problems our interpreter reported, expected to be none; nil where they are not checked.
    public var warnings: [String]?
    /// The page, saved beside the images when they are kept.
    public var pdf: [UInt8]
    public var dpi: Double
    /// The clockwise rotation both were drawn with, in degrees.
    public var rotation: Int
    /// Writes our rendering as a PNG file at the path given (only when the images are kept).
    public var saveOurs: (String) throws -> Void

    public init(
        ours: OracleImage, theirs: OracleImage, oracle: String, warnings: [String]? = nil, pdf: [UInt8], dpi: Double,
        rotation: Int = 0, saveOurs: @escaping (String) throws -> Void
    ) {
        self.ours = ours
        self.theirs = theirs
        self.oracle = oracle
        self.warnings = warnings
        self.pdf = pdf
        self.dpi = dpi
        self.rotation = rotation
        self.saveOurs = saveOurs
    }
}

/// The project's fidelity measure: after a 3×3 box blur of both images, the share of pixels that
/// differ by more than 64/255 in some channel.
public enum Fidelity {
    public struct Comparison: Sendable, CustomStringConvertible {
        public var differing: Int
        public var total: Int
        public var fraction: Double { total == 0 ? 1 : Double(differing) / Double(total) }
        public var description: String {
            "\(differing) of \(total) pixels differ (\((fraction * 1000).rounded() / 10) %)"
        }

        public init(differing: Int, total: Int) {
            self.differing = differing
            self.total = total
        }
    }

    /// `pixels` (RGB, `width` × `height`) after a 3×3 box blur, one Int per channel.
    public static func blurred(_ pixels: [UInt8], width: Int, height: Int) -> [Int] {
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

    /// Compares our image with the oracle's; nil when the sizes differ.
    public static func compare(_ ours: OracleImage, _ theirs: OracleImage, threshold: Int = 64) -> Comparison? {
        guard ours.width == theirs.width, ours.height == theirs.height else { return nil }
        let a = blurred(ours.pixels, width: ours.width, height: ours.height)
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

    /// How many pixels of an image are not white: an oracle's drawing that shows nothing proves nothing.
    public static func inkedPixels(_ page: OracleImage) -> Int {
        (0..<(page.width * page.height)).filter { pixel in
            (0..<3).contains { page.pixels[pixel * 3 + $0] < 200 }
        }.count
    }

    /// Expects our rendering and the oracle's in `pair` to match within `tolerance` (the share of
    /// differing pixels) and our interpreter to report no problem; prints the comparison. When they
    /// do not match, or `RENDER_DUMP` is set, keeps our image, the page and MuPDF's and poppler's
    /// renderings in a temporary directory and prints where.
    /// - Returns: the comparison; nil when the sizes differ (an issue is recorded).
    @discardableResult
    public static func expectMatch(
        _ pair: RenderingPair, tolerance: Double = 0.02, label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Comparison? {
        if let warnings = pair.warnings {
            #expect(warnings.isEmpty, "\(label): \(warnings)", sourceLocation: sourceLocation)
        }
        #expect(
            inkedPixels(pair.theirs) > 50, "\(label): \(pair.oracle) drew next to nothing",
            sourceLocation: sourceLocation)
        guard let comparison = compare(pair.ours, pair.theirs) else {
            let sizes =
                "ours \(pair.ours.width)×\(pair.ours.height), \(pair.oracle) \(pair.theirs.width)×\(pair.theirs.height)"
            Issue.record("\(label): sizes differ: \(sizes)", sourceLocation: sourceLocation)
            return nil
        }
        print("\(label): \(comparison)")
        let environment = ProcessInfo.processInfo.environment
        if comparison.fraction > tolerance || environment["RENDER_DUMP"] != nil {
            let directory = try TestPaths.temporaryDirectory("render-diff")
            let page = directory + "/page.pdf"
            try pair.saveOurs(directory + "/ours.png")
            try Data(pair.pdf).write(to: URL(fileURLWithPath: page))
            let dpi = String(pair.dpi)
            _ = try? Oracle.run(
                "mutool",
                ["draw", "-q", "-r", dpi, "-R", String(pair.rotation), "-o", directory + "/mupdf.png", page, "1"])
            _ = try? Oracle.run("pdftoppm", ["-r", dpi, "-png", "-singlefile", page, directory + "/poppler"])
            print("\(label): images in \(directory)")
        }
        #expect(comparison.fraction <= tolerance, "\(label): \(comparison)", sourceLocation: sourceLocation)
        return comparison
    }
}
