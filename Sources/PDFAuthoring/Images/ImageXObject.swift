public import PDFCore
import PDFImageCodecs

/// An image ready to be placed in a PDF as an image XObject (ISO 32000-2 §8.9.5): a JPEG kept as
/// it is (`/DCTDecode`), or a PNG decoded and stored with Flate, its alpha channel (or transparent
/// palette entries) as a soft mask (`/SMask`, §11.6.5.3).
public struct ImageXObject: Sendable {
    /// Size in pixels.
    public let width: Int
    /// The height in pixels, as stored (before ``orientation`` turns the image).
    public let height: Int
    /// The image stream (its `/SMask` entry is set by ``add(using:)``).
    public let image: PDFStream
    /// The alpha channel, when the image has one.
    public let softMask: PDFStream?
    /// How the stored pixels are turned to be seen: an EXIF orientation, 1 (as stored) to 8.
    public let orientation: Int

    /// An image from its streams; an orientation outside 1…8 reads as 1.
    public init(width: Int, height: Int, image: PDFStream, softMask: PDFStream?, orientation: Int = 1) {
        self.width = width
        self.height = height
        self.image = image
        self.softMask = softMask
        self.orientation = (1...8).contains(orientation) ? orientation : 1
    }

    /// Reads JPEG or PNG bytes, refused from their headers when they declare more than `maxPixels` pixels
    /// (``checkDeclaredSize(of:maxPixels:)``).
    /// - Throws: `.decodeFailed` for other formats, damaged images or headers out of order (more than one
    ///   start-of-frame marker or IHDR chunk), `.invalidArgument` for more than `maxPixels` pixels.
    public init(data: [UInt8], maxPixels: Int = ImageXObject.defaultMaximumPixels) throws(PDFError) {
        try ImageXObject.checkDeclaredSize(of: data, maxPixels: maxPixels)
        if data.starts(with: [0xFF, 0xD8]) {
            self = try ImageXObject.jpeg(data)
        } else if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = try PNGImage(data, maxPixels: maxPixels).xObject()
        } else {
            throw PDFError(.decodeFailed, "the image is neither JPEG nor PNG")
        }
    }

    /// Adds the soft mask (when there is one) and the image; returns the image's reference.
    public func add(using add: (PDFObject) -> PDFReference) -> PDFReference {
        var stream = image
        if let softMask { stream.dictionary[.sMask] = .reference(add(.stream(softMask))) }
        return add(.stream(stream))
    }

    /// A JPEG as a `/DCTDecode` image: size and colour space from its start-of-frame marker.
    static func jpeg(_ data: [UInt8]) throws(PDFError) -> ImageXObject {
        guard let frame = JPEGFrame(data) else {
            throw PDFError(.decodeFailed, "the JPEG has no start-of-frame marker, or more than one")
        }
        let colorSpace: PDFName
        switch frame.components {
        case 1: colorSpace = "DeviceGray"
        case 3: colorSpace = "DeviceRGB"
        case 4: colorSpace = "DeviceCMYK"
        default: throw PDFError(.decodeFailed, "a JPEG with \(frame.components) components")
        }
        var dictionary: PDFDictionary = [
            .type: .name("XObject"), .subtype: .name("Image"), .width: .integer(frame.width),
            .height: .integer(frame.height), .colorSpace: .name(colorSpace),
            .bitsPerComponent: .integer(frame.bitsPerComponent), .filter: .name(.dctDecode),
        ]
        // Adobe's CMYK JPEGs store inverted values (the APP14 marker says so).
        if frame.components == 4 && frame.isAdobe { dictionary[.decode] = [1, 0, 1, 0, 1, 0, 1, 0] }
        return ImageXObject(
            width: frame.width, height: frame.height, image: PDFStream(dictionary: dictionary, encodedBytes: data),
            softMask: nil, orientation: frame.orientation)
    }
}

/// The start-of-frame facts of a JPEG (ITU T.81 §B.2.2), and its EXIF orientation.
public struct JPEGFrame: Sendable {
    /// The width in pixels (the frame's `X`).
    public var width: Int
    /// The height in pixels (the frame's `Y`).
    public var height: Int
    /// The colour components: 1 gray, 3 YCbCr/RGB, 4 CMYK or YCCK.
    public var components: Int
    /// The sample precision in bits (8 for baseline JPEG).
    public var bitsPerComponent: Int
    /// An Adobe APP14 marker is present (CMYK data is then stored inverted).
    public var isAdobe = false
    /// EXIF orientation 1…8 (1 when absent).
    public var orientation = 1

    /// Reads the JPEG's markers up to the start of scan; nil when it is not a JPEG with one frame header of a
    /// non-zero size (libjpeg refuses a second start-of-frame marker too).
    public init?(_ data: [UInt8]) {
        guard let markers = JPEGFrame.markers(data), markers.frames.count == 1, let frame = markers.frames.first,
            frame.width > 0, frame.height > 0
        else { return nil }
        self.width = frame.width
        self.height = frame.height
        self.components = frame.components
        self.bitsPerComponent = frame.bits
        self.isAdobe = markers.adobe
        self.orientation = markers.orientation
    }

    /// What the markers before the start of scan say: every start-of-frame header (ITU T.81 §B.2.2) in
    /// order, an Adobe APP14 marker, the EXIF orientation; nil when the bytes stop being JPEG markers.
    static func markers(
        _ data: [UInt8]
    ) -> (frames: [(width: Int, height: Int, components: Int, bits: Int)], adobe: Bool, orientation: Int)? {
        guard data.starts(with: [0xFF, 0xD8]) else { return nil }
        var index = 2
        var frames: [(width: Int, height: Int, components: Int, bits: Int)] = []
        var adobe = false
        var orientation = 1
        while index + 4 <= data.count {
            guard data[index] == 0xFF else { return nil }
            let marker = data[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                index += 2
                continue
            }
            let length = Int(data[index + 2]) << 8 | Int(data[index + 3])
            guard length >= 2, index + 2 + length <= data.count else { return nil }
            let segment = Array(data[(index + 4)..<(index + 2 + length)])
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard segment.count >= 6 else { return nil }
                frames.append(
                    (
                        Int(segment[3]) << 8 | Int(segment[4]), Int(segment[1]) << 8 | Int(segment[2]),
                        Int(segment[5]), Int(segment[0])
                    ))
            case 0xEE:
                if segment.starts(with: Array("Adobe".utf8)) { adobe = true }
            case 0xE1:
                if let value = JPEGFrame.exifOrientation(segment) { orientation = value }
            case 0xDA:
                index = data.count  // start of scan: the header is over
                continue
            default: break
            }
            index += 2 + length
        }
        return (frames, adobe, orientation)
    }

    /// The orientation tag (0x0112) of an EXIF APP1 segment.
    private static func exifOrientation(_ segment: [UInt8]) -> Int? {
        guard segment.count > 14, segment.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = Array(segment[6...])
        let little = tiff.starts(with: [0x49, 0x49])
        func u16(_ offset: Int) -> Int? {
            guard offset + 2 <= tiff.count else { return nil }
            return little
                ? Int(tiff[offset]) | Int(tiff[offset + 1]) << 8 : Int(tiff[offset]) << 8 | Int(tiff[offset + 1])
        }
        func u32(_ offset: Int) -> Int? {
            guard let high = u16(little ? offset + 2 : offset), let low = u16(little ? offset : offset + 2) else {
                return nil
            }
            return high << 16 | low
        }
        guard let directory = u32(4), let count = u16(directory) else { return nil }
        for entry in 0..<min(count, 64) {
            let offset = directory + 2 + entry * 12
            if u16(offset) == 0x0112, let value = u16(offset + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}
