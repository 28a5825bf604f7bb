import PDFCore

extension ContentInterpreter {
    /// `Do` (ISO 32000-2 §8.8, §8.10).
    func drawXObject(_ name: PDFName) {
        guard let object = resource("XObject", name) else {
            warn("XObject /\(name.string) is not in the resources")
            return
        }
        guard let stream = document.resolve(object).streamValue else {
            warn("XObject /\(name.string) is not a stream")
            return
        }
        if let content = stream.dictionary[.oc], !graphics.optionalContent.isVisible(content) { return }
        switch stream.dictionary[.subtype]?.nameValue?.string {
        case "Image":
            let number = object.referenceValue.map { " (object \($0.number))" } ?? ""
            drawImage(stream, name: "image /\(name.string)\(number)")
        case "Form":
            _ = entering(object.referenceValue.map { .object($0) }, "form /\(name.string)") {
                drawForm(stream)
            }
        case "PS": break  // PostScript XObjects are not drawn (§8.8.2)
        default: warn("XObject /\(name.string) has an unknown /Subtype")
        }
    }

    func drawForm(_ stream: PDFStream) {
        let dictionary = stream.dictionary
        let matrix = PDFMatrix(dictionary[.matrix], document: document) ?? .identity
        let ctm = matrix.concatenating(state.ctm)
        let bytes: [UInt8]
        do {
            bytes = try stream.decodedData(maxSize: 1 << 28)
        } catch {
            warn("a form cannot be decoded: \(error.message)")
            return
        }
        let formResources = document.resolve(dictionary[.resources] ?? .null).dictionaryValue
        var bbox: PDFRectangle? = nil
        if let numbers = document.resolve(dictionary[.bBox] ?? .null).arrayValue?
            .compactMap({ document.resolve($0).numberValue }), numbers.count == 4
        {
            bbox = PDFRectangle(x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
        }
        let group = document.resolve(dictionary[.group] ?? .null).dictionaryValue
        let isTransparencyGroup = group?[.s]?.nameValue?.string == "Transparency"

        items.append(.save)
        if let bbox {
            var clip = Path()
            clip.rectangle(bbox.x0, bbox.y0, bbox.width, bbox.height)
            items.append(.clip(clip, .nonZero, ctm: ctm))
        }
        if isTransparencyGroup && !isHidden {
            var info = TransparencyGroup()
            info.isolated = group?[.i] == .boolean(true)
            info.knockout = group?[.k] == .boolean(true)
            info.bounds = bbox.map { ctm.apply($0) }
            info.state = state.drawState(stroking: false)
            items.append(.beginGroup(info))
            // Inside the group the alpha, blend mode and soft mask start afresh (§11.6.6).
            let saved = state
            state.fillAlpha = 1
            state.strokeAlpha = 1
            state.blendMode = .normal
            state.softMask = nil
            runNested(bytes, resources: formResources, ctm: ctm)
            state = saved
            items.append(.endGroup)
        } else {
            runNested(bytes, resources: formResources, ctm: ctm)
        }
        items.append(.restore)
    }

    func drawImage(_ stream: PDFStream, name: String) {
        guard !isHidden else { return }
        do {
            let (source, isMask) = try ImageDecoder(graphics: graphics)
                .source(stream, resources: resources, name: name)
            if isMask {
                guard let paint = currentPaint(stroking: false) else { return }
                emit(.stencilMask(source, paint, ctm: state.ctm, state: state.drawState(stroking: false)))
            } else {
                emit(.image(source, ctm: state.ctm, state: state.drawState(stroking: false)))
            }
        } catch {
            warn("\(name) is not drawn: \(error.message)")
        }
    }

    /// `BI … ID … EI`: the abbreviated keys and names expanded (§8.9.7, Tables 92 and 93).
    func drawInlineImage(_ abbreviated: PDFDictionary, data: [UInt8]) {
        let keys = [
            "BPC": "BitsPerComponent", "CS": "ColorSpace", "D": "Decode", "DP": "DecodeParms", "F": "Filter",
            "H": "Height", "IM": "ImageMask", "I": "Interpolate", "W": "Width", "L": "Length",
        ]
        let names = [
            "G": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK", "I": "Indexed", "AHx": "ASCIIHexDecode",
            "A85": "ASCII85Decode", "LZW": "LZWDecode", "Fl": "FlateDecode", "RL": "RunLengthDecode",
            "CCF": "CCITTFaxDecode", "DCT": "DCTDecode",
        ]
        func expand(_ object: PDFObject) -> PDFObject {
            switch object {
            case .name(let name): return .name(PDFName(names[name.string] ?? name.string))
            case .array(let items): return .array(items.map(expand))
            default: return object
            }
        }
        var dictionary: PDFDictionary = [.type: .name("XObject"), .subtype: .name("Image")]
        for entry in abbreviated {
            let key = keys[entry.key.string] ?? entry.key.string
            var value = expand(entry.value)
            // A colour space name that is not a device space comes from the resources.
            if key == "ColorSpace", case .name(let name) = value,
                !["DeviceGray", "DeviceRGB", "DeviceCMYK", "Indexed"].contains(name.string),
                let resolved = resource("ColorSpace", name)
            {
                value = resolved
            }
            dictionary[PDFName(key)] = value
        }
        drawImage(PDFStream(dictionary: dictionary, encodedBytes: data), name: "an inline image")
    }
}
