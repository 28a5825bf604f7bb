import Foundation

/// Reading PBM files and running `pdfimages` (poppler), shared by the CCITT and JBIG2 tests.
public enum CodecOracle {
    public struct Bitmap {
        public var width: Int
        public var height: Int
        /// Packed rows, 1 = black (PBM).
        public var bits: [UInt8]
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads a binary (P4) PBM.
    public static func readPBM(_ path: String) throws -> Bitmap {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var index = 0
        var fields: [Int] = []
        func skipSpaceAndComments() {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count && bytes[index] != 10 { index += 1 }
                } else if bytes[index] == 32 || (9...13).contains(bytes[index]) {
                    index += 1
                } else {
                    return
                }
            }
        }
        guard bytes.starts(with: Array("P4".utf8)) else { throw Failure(description: "\(path) is not a P4 PBM") }
        index = 2
        while fields.count < 2 {
            skipSpaceAndComments()
            var value = 0
            while index < bytes.count, (48...57).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 48)
                index += 1
            }
            fields.append(value)
        }
        index += 1
        return Bitmap(width: fields[0], height: fields[1], bits: Array(bytes[index...]))
    }

    /// One line of `pdfimages -list`.
    public struct ListedImage {
        public var page: Int
        public var number: Int
        public var type: String
        public var width: Int
        public var height: Int
        public var encoding: String
        public var object: Int?
    }

    public static func list(_ file: String, arguments: [String] = []) throws -> [ListedImage] {
        let result = try Oracle.run("pdfimages", ["-list"] + arguments + [file])
        return result.output.split(separator: "\n").dropFirst(2).compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard fields.count >= 11, let page = Int(fields[0]), let number = Int(fields[1]) else { return nil }
            return ListedImage(
                page: page, number: number, type: fields[2], width: Int(fields[3]) ?? 0, height: Int(fields[4]) ?? 0,
                encoding: fields[8], object: Int(fields[10]))
        }
    }

    /// The images of one page as `pdfimages` writes them (PBM for 1-bit images), in page order.
    public static func extract(_ file: String, page: Int, into directory: String, arguments: [String] = []) throws
        -> [String]
    {
        let prefix = "\(directory)/p\(page)"
        _ = try Oracle.run("pdfimages", ["-f", "\(page)", "-l", "\(page)"] + arguments + [file, prefix], timeout: 300)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasPrefix("p\(page)-") }.sorted()
        return names.map { "\(directory)/\($0)" }
    }

    /// The image object as MuPDF extracts it (`mutool extract`, PNG, made a PBM by Pillow: 1 where
    /// the PNG is dark), or nil when MuPDF writes nothing.
    public static func mupdfExtract(_ file: String, object: Int, into directory: String, password: String?) throws
        -> Bitmap?
    {
        let folder = "\(directory)/mupdf-\(object)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let passwordOption = password.map { "-p '\($0)' " } ?? ""
        _ = try Oracle.run(
            "sh", ["-c", "cd '\(folder)' && mutool extract \(passwordOption)'\(file)' \(object)"], timeout: 300)
        guard
            let png = try FileManager.default.contentsOfDirectory(atPath: folder).first(where: { $0.hasSuffix(".png") })
        else { return nil }
        let script =
            "import sys; from PIL import Image; Image.open(sys.argv[1]).convert('L').point(lambda v: 255 if v >= 128 else 0).convert('1').save(sys.argv[2])"
        _ = try Oracle.run("python3", ["-c", script, "\(folder)/\(png)", "\(folder)/image.pbm"], timeout: 300)
        return try? readPBM("\(folder)/image.pbm")
    }

    /// Clears the padding bits after `width` in each packed row.
    public static func maskPadding(_ bits: [UInt8], width: Int) -> [UInt8] {
        let bytesPerRow = (width + 7) / 8
        guard width % 8 != 0, bytesPerRow > 0 else { return bits }
        let mask = UInt8(0xFF) << UInt8(8 - width % 8)
        var bits = bits
        var index = bytesPerRow - 1
        while index < bits.count {
            bits[index] &= mask
            index += bytesPerRow
        }
        return bits
    }
}
