import PDFGraphics

/// One fuzzing input for content streams and functions, shared by the fuzzer (`Sources/FuzzContent`)
/// and the tests that replay what it found. The first byte chooses what reads the rest:
///
/// - selector % 4 = 0: the content parser alone (`ContentParser`, inline images included).
/// - selector % 4 = 1 or 2: a page whose content stream is the input, interpreted and drawn (at 10
///   dpi for 1, 30 for 2) with resources of every kind to name: a standard and a Type 3 font, an
///   image and a form XObject (whose content is the input too), graphics states with a blend mode
///   and a soft mask, a shading, tiling and shading patterns, Separation, Indexed and Pattern colour
///   spaces, an optional content group.
/// - selector % 4 = 3: functions and shadings (ISO 32000-2 §7.10, §8.7.4.5); the next byte chooses
///   what the rest is: 0 a sampled function's samples, 1 a function's dictionary as PDF text (any
///   type, stitching ones nesting others), 2 a PostScript calculator function's program, 3 a mesh
///   shading's stream (types 4 to 7). The page paints with them (`sh`, a Separation colour whose tint
///   transform is the function).
package enum ContentFuzzInput {
    /// The page's resources in the content modes (the objects are ``contentObjects(form:)``, from 5).
    static let contentResources = """
        << /Font << /F1 5 0 R /F3 6 0 R >> /XObject << /Im1 7 0 R /Fm1 8 0 R >> \
        /ExtGState << /G1 << /CA 0.5 /ca 0.5 /BM /Multiply /LW 2 >> \
        /G2 << /SMask << /S /Luminosity /G 8 0 R >> >> >> /Shading << /Sh1 9 0 R >> \
        /Pattern << /P1 10 0 R /P2 << /PatternType 2 /Shading 9 0 R >> >> \
        /ColorSpace << /CS1 [/Separation /Spot /DeviceRGB 11 0 R] /CS2 [/Indexed /DeviceRGB 1 <FF000000FF00>] \
        /CS3 [/Pattern /DeviceRGB] >> /Properties << /OC1 12 0 R >> >>
        """

    /// Objects 5 to 13 of the content modes; the form XObject's content is `form`.
    static func contentObjects(form: [UInt8]) -> [FuzzPage.Object] {
        [
            FuzzPage.Object("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
            FuzzPage.Object(
                "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
                    + "/CharProcs << /a 13 0 R >> /Encoding << /Type /Encoding /Differences [65 /a] >> "
                    + "/FirstChar 65 /LastChar 65 /Widths [1000] >>"),
            FuzzPage.Object(
                "<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 >>",
                stream: [0, 255, 128, 64]),
            FuzzPage.Object(
                "<< /Type /XObject /Subtype /Form /BBox [0 0 100 100] /Group << /S /Transparency >> "
                    + "/Resources << /Font << /F1 5 0 R >> /XObject << /Fm1 8 0 R >> >> >>",
                stream: form),
            FuzzPage.Object(
                "<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 100 100] /Extend [true true] "
                    + "/Function << /FunctionType 2 /Domain [0 1] /C0 [1 0 0] /C1 [0 0 1] /N 1 >> >>"),
            FuzzPage.Object(
                "<< /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << >> >>",
                stream: Array("0 0 5 5 re f".utf8)),
            FuzzPage.Object(
                "<< /FunctionType 4 /Domain [0 1] /Range [0 1 0 1 0 1] >>", stream: Array("{dup dup}".utf8)),
            FuzzPage.Object("<< /Type /OCG /Name (Layer) >>"),
            FuzzPage.Object("<< >>", stream: Array("1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f".utf8)),
        ]
    }

    /// What the function modes' page draws: both shadings, then a rectangle in the Separation colour.
    static let functionContent = Array(
        "q /Sh1 sh Q q /Sh2 sh Q /CS1 cs 0.25 scn 0 0 50 50 re f /CS1 CS 1 SCN 5 w S".utf8)

    /// Parses, interprets or draws `input` as the selector says.
    package static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        switch selector % 4 {
        case 0:
            var count = 0
            _ = ContentParser.forEachOperation(in: body) { operation in
                count += operation.operands.count + (operation.inlineImage?.data.count ?? 0)
                return true
            }
        case 1, 2:
            let page = FuzzPage(
                content: body, resources: contentResources, objects: contentObjects(form: body))
            page.draw(dpi: selector % 4 == 1 ? 10 : 30)
        default:
            guard let kind = body.first else { return }
            functionPage(kind: kind, Array(body.dropFirst())).draw()
        }
    }

    /// A page that paints with a function or shading made of `data` (see the type's summary).
    static func functionPage(kind: UInt8, _ data: [UInt8]) -> FuzzPage {
        // Object 5 is the one-input function, 6 the two-input one (a type 1 shading's), 7 /Sh1, 8 /Sh2.
        var oneInput: FuzzPage.Object
        var twoInputs: FuzzPage.Object
        var mesh: FuzzPage.Object?
        switch kind % 4 {
        case 0:
            let head = Array(data.prefix(3)) + [UInt8](repeating: 0, count: max(0, 3 - data.count))
            let bits = [1, 2, 4, 8, 12, 16, 24, 32][Int(head[2] % 8)]
            let samples = Array(data.dropFirst(3))
            let (width, height) = (Int(head[0] % 16) + 1, Int(head[1] % 16) + 1)
            let order = head[2] & 0x80 != 0 ? 3 : 1
            oneInput = FuzzPage.Object(
                "<< /FunctionType 0 /Domain [0 1] /Range [0 1 0 1 0 1] /Size [\(width)] /BitsPerSample \(bits) "
                    + "/Order \(order) >>", stream: samples)
            twoInputs = FuzzPage.Object(
                "<< /FunctionType 0 /Domain [0 1 0 1] /Range [0 1 0 1 0 1] /Size [\(width) \(height)] "
                    + "/BitsPerSample \(bits) /Order \(order) /Encode [0 \(width - 1) 0 \(height - 1)] >>",
                stream: samples)
        case 1:
            let text = String(decoding: data, as: UTF8.self)
            oneInput = FuzzPage.Object(text)
            twoInputs = FuzzPage.Object(text)
        case 2:
            oneInput = FuzzPage.Object("<< /FunctionType 4 /Domain [0 1] /Range [0 1 0 1 0 1] >>", stream: data)
            twoInputs = FuzzPage.Object(
                "<< /FunctionType 4 /Domain [0 1 0 1] /Range [0 1 0 1 0 1] >>", stream: data)
        default:
            oneInput = FuzzPage.Object(
                "<< /FunctionType 4 /Domain [0 1] /Range [0 1 0 1 0 1] >>", stream: Array("{dup dup}".utf8))
            twoInputs = FuzzPage.Object(
                "<< /FunctionType 4 /Domain [0 1 0 1] /Range [0 1 0 1 0 1] >>", stream: Array("{pop dup dup}".utf8))
            let type = 4 + Int((data.first ?? 0) % 4)
            let rows = type == 5 ? "/VerticesPerRow 3 " : ""
            mesh = FuzzPage.Object(
                "<< /ShadingType \(type) /ColorSpace /DeviceRGB /BitsPerCoordinate 16 /BitsPerComponent 8 "
                    + "/BitsPerFlag 8 \(rows)/Decode [0 200 0 200 0 1 0 1 0 1] >>", stream: Array(data.dropFirst()))
        }
        let first = FuzzPage.Object(
            "<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 200 200] /Extend [true false] /Function 5 0 R >>")
        let second =
            mesh
            ?? FuzzPage.Object(
                "<< /ShadingType 1 /ColorSpace /DeviceRGB /Domain [0 1 0 1] /Matrix [200 0 0 200 0 0] /Function 6 0 R >>"
            )
        return FuzzPage(
            content: functionContent,
            resources:
                "<< /Shading << /Sh1 7 0 R /Sh2 8 0 R >> /ColorSpace << /CS1 [/Separation /Spot /DeviceRGB 5 0 R] >> >>",
            objects: [oneInput, twoInputs, first, second])
    }
}
