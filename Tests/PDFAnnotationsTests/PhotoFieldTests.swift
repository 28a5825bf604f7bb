import Foundation
import PDFAuthoring
import PDFForms
import PDFImageCodecs
import PDFTestSupport
import Testing

@testable import PDFAnnotations
@testable import PDFCore

@Suite("Photo fields")
struct PhotoFieldTests {
    static let photoRect = PDFRectangle(x0: 100, y0: 400, x1: 300, y1: 600)
    static let badgeRect = PDFRectangle(x0: 350, y0: 450, x1: 500, y1: 550)

    /// A page with a text field `photo`, a push button `badge` turned a quarter (`/MK /R 90`), a
    /// read-only text field `locked` and a checkbox `agree`.
    static func form() -> [UInt8] {
        var builder = PDFBuilder()
        let page = builder.reserve()
        var fields: [PDFObject] = []
        func field(_ entries: PDFDictionary, _ rect: PDFRectangle) {
            var dictionary = entries
            dictionary[.type] = .name("Annot")
            dictionary[.subtype] = .name("Widget")
            dictionary[PDFName("Rect")] = rect.object
            dictionary[PDFName("P")] = .reference(page)
            dictionary[.f] = 4
            if dictionary[PDFName("MK")] == nil {
                dictionary[PDFName("MK")] = .dictionary([PDFName("BC"): [0, 0, 0]])
            }
            fields.append(.reference(builder.add(.dictionary(dictionary))))
        }
        func text(_ value: String) -> PDFObject { .string(PDFString(text: value)) }
        field([.ft: .name("Tx"), PDFName("T"): text("photo"), PDFName("DA"): text("/Helv 0 Tf 0 g")], photoRect)
        field(
            [
                .ft: .name("Btn"), PDFName("T"): text("badge"), PDFName("Ff"): .integer(1 << 16),
                PDFName("MK"): .dictionary([PDFName("R"): 90, PDFName("BC"): [0, 0, 1]]),
            ], badgeRect)
        field(
            [.ft: .name("Tx"), PDFName("T"): text("locked"), PDFName("Ff"): 1],
            PDFRectangle(x0: 100, y0: 300, x1: 200, y1: 350))
        field(
            [.ft: .name("Btn"), PDFName("T"): text("agree"), .v: .name("Off")],
            PDFRectangle(x0: 100, y0: 250, x1: 118, y1: 268))
        builder.set(
            page,
            to: .dictionary([
                .type: .name(.page), .parent: .reference(builder.pages),
                .mediaBox: PDFRectangle(x0: 0, y0: 0, x1: 612, y1: 792).object,
                PDFName("Annots"): .array(fields),
            ]))
        builder.appendPage(page)
        builder.catalogEntries[PDFName("AcroForm")] = .dictionary([PDFName("Fields"): .array(fields)])
        return builder.build()
    }

    /// A `width`×`height` JPEG, left half red and right half blue, with an EXIF orientation when given.
    static func jpeg(width: Int = 40, height: Int = 20, orientation: Int? = nil) throws -> [UInt8] {
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 2 ? [230, 20, 20] : [20, 20, 230] }
        }
        let encoded = try JPEGCodec.encode(
            RasterImage(width: width, height: height, channels: 3, pixels: pixels, alpha: nil), quality: 95)
        guard let orientation else { return encoded }
        // APP1: "Exif\0\0", a big-endian TIFF header and one IFD entry, tag 274 (SHORT).
        let tiff: [UInt8] =
            [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0]
            + [0, 0, 0, 0]
        let segment = Array("Exif".utf8) + [0, 0] + tiff
        let length = segment.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + segment + encoded.dropFirst(2)
    }

    /// A `width`×`height` PNG (RGBA, 8 bits): green, fully transparent in its left quarter.
    static func png(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)
            for x in 0..<width { raw += x < width / 4 ? [0, 0, 0, 0] : [20, 180, 20, 255] }
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            // CRC-32 (ISO 3309), bit by bit.
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", Flate.compress(raw)) + chunk("IEND", [])
    }

    /// Writes `bytes` and the original form; returns both paths.
    static func write(_ bytes: [UInt8], original: [UInt8]) throws -> (String, String) {
        let directory = try TestPaths.temporaryDirectory("photo")
        try Data(original).write(to: URL(fileURLWithPath: directory + "/form.pdf"))
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/photo.pdf"))
        return (directory + "/form.pdf", directory + "/photo.pdf")
    }

    /// The image XObject a field's first widget shows.
    static func placedImage(_ bytes: [UInt8], field name: String) throws -> PDFStream? {
        let document = try PDFDocument(bytes: bytes)
        guard let widget = AcroForm(document: document)?.field(named: name)?.widgets.first,
            let appearance = document.resolve(widget.dictionary[PDFName("AP")] ?? .null).dictionaryValue,
            let form = document.resolve(appearance[.n] ?? .null).streamValue,
            let resources = document.resolve(form.dictionary[.resources] ?? .null).dictionaryValue,
            let xObjects = document.resolve(resources[PDFName("XObject")] ?? .null).dictionaryValue
        else { return nil }
        return document.resolve(xObjects[PDFName("Photo")] ?? .null).streamValue
    }

    /// The first page of `after` rendered, its pixels that differ from `before`, and their bounds,
    /// which must lie inside `rect`.
    static func changes(_ before: String, _ after: String, inside rect: PDFRectangle) throws -> (
        RenderedPage, [(x: Int, y: Int)], (x0: Int, y0: Int, x1: Int, y1: Int)
    ) {
        let page = try RenderedPage.render(after, page: 1, dpi: 72)
        let changed = page.differences(from: try RenderedPage.render(before, page: 1, dpi: 72))
        let field = page.pixelBox(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1, pageHeight: 792)
        let bounds = try #require(RenderedPage.bounds(of: changed))
        #expect(
            bounds.x0 >= field.x0 - 1 && bounds.x1 <= field.x1 && bounds.y0 >= field.y0 - 1 && bounds.y1 <= field.y1,
            "ink outside the field: \(bounds) vs \(field)")
        return (page, changed, bounds)
    }

    static func expectClean(_ path: String, original: [UInt8]) throws {
        #expect(try Oracle.qpdfCheck(path).status == 0, "qpdf --check reports problems")
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.starts(with: original), "the original bytes changed")
    }

    @Test("a JPEG with EXIF orientation 6 is shown turned upright, fills its field's height and stays in it")
    func orientedJPEG() throws {
        let original = Self.form()
        let filler = PhotoFieldFiller(document: try PDFDocument(bytes: original), maxWidth: 1000, maxHeight: 1000)
        let bytes = try filler.makeUpdate(placing: try Self.jpeg(orientation: 6), in: "photo").documentBytes()
        let (before, after) = try Self.write(bytes, original: original)
        try Self.expectClean(after, original: original)
        // A JPEG that fits is placed as it is: the DCT data is the file.
        #expect(try Self.placedImage(bytes, field: "photo")?.encodedBytes() == Self.jpeg(orientation: 6))

        let (page, changed, _) = try Self.changes(before, after, inside: Self.photoRect)
        // Upright: the stored left (red) half is now the top, the blue half the bottom; a 1:2 photo
        // spans the field's height and half its width, centred.
        let top = page.color(atX: 200, y: 550, pageHeight: 792)
        let bottom = page.color(atX: 200, y: 450, pageHeight: 792)
        #expect(top.r > 180 && top.b < 90, "top is \(top)")
        #expect(bottom.b > 180 && bottom.r < 90, "bottom is \(bottom)")
        let beside = page.color(atX: 120, y: 500, pageHeight: 792)
        #expect(beside.r > 240 && beside.g > 240 && beside.b > 240, "left of the photo is \(beside)")
        let imageColumn = changed.filter { $0.x == 200 }.map(\.y)
        #expect((imageColumn.max() ?? 0) - (imageColumn.min() ?? 0) >= 194, "the photo does not fill the height")
    }

    @Test("a large PNG is scaled down to the maximum size, keeps its transparency, and replaces an earlier photo")
    func scaledPNGReplacesPhoto() throws {
        let original = Self.form()
        let first = try PhotoFieldFiller(document: try PDFDocument(bytes: original), maxWidth: 64, maxHeight: 64)
            .makeUpdate(placing: try Self.jpeg(width: 400, height: 200), in: "photo").documentBytes()
        // Scaled: a JPEG again, at most 64 pixels wide.
        let firstImage = try #require(try Self.placedImage(first, field: "photo"))
        #expect(firstImage.dictionary[PDFName("Width")] == 64 && firstImage.dictionary[PDFName("Height")] == 32)
        #expect(firstImage.dictionary[.filter] == .name(.dctDecode))

        let second = try PhotoFieldFiller(document: try PDFDocument(bytes: first), maxWidth: 50, maxHeight: 100)
            .makeUpdate(placing: Self.png(width: 300, height: 300), in: "photo").documentBytes()
        let secondImage = try #require(try Self.placedImage(second, field: "photo"))
        #expect(secondImage.dictionary[PDFName("Width")] == 50 && secondImage.dictionary[PDFName("Height")] == 50)
        #expect(secondImage.dictionary[PDFName("SMask")] != nil, "the transparency was lost")
        let (_, after) = try Self.write(second, original: original)
        try Self.expectClean(after, original: first)
        let page = try RenderedPage.render(after, page: 1, dpi: 72)
        let centre = page.color(atX: 240, y: 500, pageHeight: 792)
        #expect(centre.g > 140 && centre.r < 80 && centre.b < 80, "the new photo is not shown: \(centre)")
        let clear = page.color(atX: 110, y: 500, pageHeight: 792)
        #expect(clear.r > 240 && clear.g > 240 && clear.b > 240, "the old photo shows through: \(clear)")
    }

    @Test("a push button turned a quarter shows the photo inside its rectangle, as its icon too")
    func pushButton() throws {
        let original = Self.form()
        let bytes = try PhotoFieldFiller(document: try PDFDocument(bytes: original))
            .makeUpdate(placing: try Self.jpeg(), in: "badge").documentBytes()
        let (before, after) = try Self.write(bytes, original: original)
        try Self.expectClean(after, original: original)
        let (_, _, bounds) = try Self.changes(before, after, inside: Self.badgeRect)
        // Turned a quarter, the 2:1 photo spans the button's height (less its border) on the page.
        #expect(bounds.y1 - bounds.y0 >= 97, "the photo does not fill the button: \(bounds)")
        let document = try PDFDocument(bytes: bytes)
        let widget = try #require(AcroForm(document: document)?.field(named: "badge")?.widgets.first)
        let characteristics = document.resolve(widget.dictionary[PDFName("MK")] ?? .null).dictionaryValue
        #expect(characteristics?[PDFName("I")] == widget.dictionary[PDFName("AP")]?.dictionaryValue?[.n])
    }

    @Test("unknown, read-only and checkbox fields and unreadable images are clear errors")
    func errors() throws {
        let filler = PhotoFieldFiller(document: try PDFDocument(bytes: Self.form()))
        let jpeg = try Self.jpeg()
        func code(_ body: () throws -> Void) -> AnnotationError.Code? {
            do {
                try body()
                return nil
            } catch { return (error as? AnnotationError)?.code }
        }
        #expect(code { _ = try filler.makeUpdate(placing: jpeg, in: "nothing") } == .unknownField)
        #expect(code { _ = try filler.makeUpdate(placing: jpeg, in: "locked") } == .readOnly)
        #expect(code { _ = try filler.makeUpdate(placing: jpeg, in: "agree") } == .unknownField)
        #expect(code { _ = try filler.makeUpdate(placing: Array("GIF89a".utf8), in: "photo") } == .invalidImage)
        #expect(code { _ = try filler.makeUpdate(placing: Array(jpeg.prefix(200)), in: "photo") } == .invalidImage)
        var tiny = filler
        tiny.maxWidth = 0
        #expect(code { _ = try tiny.makeUpdate(placing: jpeg, in: "photo") } == .invalidArgument)
        // A truncated JPEG that must be decoded to be scaled fails cleanly too.
        var small = filler
        small.maxWidth = 8
        #expect(code { _ = try small.makeUpdate(placing: Array(jpeg.prefix(200)), in: "photo") } == .invalidImage)
        #expect(code { _ = try small.makeUpdate(placing: jpeg, in: "photo") } == nil)
    }

    @Test("EXIF orientations 1 to 8 all come out upright")
    func everyOrientation() throws {
        // The stored image, 40×20, red left half: as seen, red is on the left (1, 4), right (2, 3),
        // top (5, 6) or bottom (7, 8).
        let expected: [Int: String] = [
            1: "left", 2: "right", 3: "right", 4: "left", 5: "top", 6: "top", 7: "bottom", 8: "bottom",
        ]
        for orientation in 1...8 {
            let image = try ImageXObject(data: try Self.jpeg(orientation: orientation))
            #expect(image.orientation == orientation)
            let box = PDFRectangle(x0: 0, y0: 0, x1: 100, y1: 100)
            let m = image.matrix(fitting: box)
            // Where the stored image's left-half centre (u = 0.25, v = 0.5) lands.
            let x = m[0] * 0.25 + m[2] * 0.5 + m[4]
            let y = m[1] * 0.25 + m[3] * 0.5 + m[5]
            let side = x < 40 ? "left" : x > 60 ? "right" : y > 60 ? "top" : y < 40 ? "bottom" : "centre"
            #expect(side == expected[orientation], "orientation \(orientation) puts red \(side)")
        }
    }
}
