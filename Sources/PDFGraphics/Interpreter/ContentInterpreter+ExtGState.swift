import PDFCore

extension ContentInterpreter {
    /// `gs`: the parameters of a graphics state parameter dictionary (ISO 32000-2 §8.4.5).
    func applyExtGState(_ name: PDFName) {
        guard let object = resource("ExtGState", name), let dictionary = document.resolve(object).dictionaryValue else {
            warn("graphics state /\(name.string) is not in the resources")
            return
        }
        func number(_ key: String) -> Double? { dictionary[PDFName(key)].flatMap { document.resolve($0).numberValue } }
        if let width = number("LW") { state.strokeStyle.width = abs(width) }
        if let cap = number("LC"), let value = StrokeStyle.Cap(rawValue: Int(cap)) { state.strokeStyle.cap = value }
        if let join = number("LJ"), let value = StrokeStyle.Join(rawValue: Int(join)) { state.strokeStyle.join = value }
        if let limit = number("ML") { state.strokeStyle.miterLimit = max(1, limit) }
        if let dash = document.resolve(dictionary[.d] ?? .null).arrayValue, dash.count == 2,
            let pattern = document.resolve(dash[0]).arrayValue
        {
            let lengths = pattern.compactMap { document.resolve($0).numberValue }.map(abs)
            state.strokeStyle.dash = lengths.allSatisfy { $0 == 0 } ? [] : lengths
            state.strokeStyle.dashPhase = document.resolve(dash[1]).numberValue ?? 0
        }
        if let font = document.resolve(dictionary[.font] ?? .null).arrayValue, font.count == 2,
            let size = document.resolve(font[1]).numberValue
        {
            state.text.font = graphics.fonts.font(font[0])
            state.text.fontSize = size
        }
        if let alpha = number("CA") { state.strokeAlpha = max(0, min(1, alpha)) }
        if let alpha = number("ca") { state.fillAlpha = max(0, min(1, alpha)) }
        if case .boolean(let value)? = dictionary[.ais] { state.alphaIsShape = value }
        if let blend = dictionary[.bm] { state.blendMode = blendMode(blend) }
        if let mask = dictionary[.sMask], graphics.options.includesPaints { state.softMask = softMask(mask) }
    }

    /// `/BM`: a name, or an array whose first known name wins (§11.3.5).
    private func blendMode(_ object: PDFObject) -> BlendMode {
        let candidates: [PDFObject]
        switch document.resolve(object) {
        case .array(let items): candidates = items
        case let other: candidates = [other]
        }
        for candidate in candidates {
            if let name = document.resolve(candidate).nameValue?.string {
                if let mode = BlendMode(rawValue: name) { return mode }
                if name == "Compatible" { return .normal }
            }
        }
        return .normal
    }

    /// `/SMask`: `/None`, or a mask dictionary whose group `/G` is run now, in the current CTM (§11.6.5.2).
    private func softMask(_ object: PDFObject) -> SoftMask? {
        guard let dictionary = document.resolve(object).dictionaryValue else { return nil }
        guard let groupObject = dictionary[.g], let group = document.resolve(groupObject).streamValue else {
            warn("a soft mask without a group /G")
            return nil
        }
        let kind: SoftMask.Kind = dictionary[.s]?.nameValue?.string == "Alpha" ? .alpha : .luminosity
        let groupDictionary = group.dictionary
        let formMatrix = PDFMatrix(groupDictionary[.matrix], document: document) ?? .identity
        let ctm = formMatrix.concatenating(state.ctm)
        let groupResources = document.resolve(groupDictionary[.resources] ?? .null).dictionaryValue
        guard let child = child(resources: groupResources, ctm: ctm) else { return nil }
        var bounds: PDFRectangle? = nil
        if let bbox = document.resolve(groupDictionary[.bBox] ?? .null).arrayValue?
            .compactMap({ document.resolve($0).numberValue }), bbox.count == 4
        {
            let rect = PDFRectangle(x0: bbox[0], y0: bbox[1], x1: bbox[2], y1: bbox[3])
            bounds = ctm.apply(rect)
            var clip = Path()
            clip.rectangle(rect.x0, rect.y0, rect.width, rect.height)
            child.items.append(DisplayItem.clip(clip, FillRule.nonZero, ctm: ctm))
        }
        let bytes: [UInt8]
        do {
            bytes = try group.decodedData(maxSize: 1 << 26)
        } catch {
            warn("a soft mask group cannot be decoded: \(error.message)")
            return nil
        }
        child.run(bytes: bytes)
        for warning in child.warnings { warn(warning) }
        // The backdrop is in the group's colour space (/Group /CS), black by default.
        var backdrop = RGB.black
        if let components = document.resolve(dictionary[.bc] ?? .null).arrayValue?
            .compactMap({ document.resolve($0).numberValue }), !components.isEmpty
        {
            let groupInfo = document.resolve(groupDictionary[.group] ?? .null).dictionaryValue
            let space =
                groupInfo?[.cs].flatMap {
                    try? ColorSpace.resolve(
                        $0, resources: groupResources, document: document, icc: graphics.options.icc)
                } ?? (components.count == 4 ? .deviceCMYK : components.count == 3 ? .deviceRGB : .deviceGray)
            backdrop = space.rgb(components)
        }
        var transfer: (@Sendable (Double) -> Double)? = nil
        if let function = dictionary[.tr], document.resolve(function).nameValue?.string != "Identity" {
            if let compiled = try? PDFFunction(function, document: document) {
                transfer = { compiled.evaluate([$0]).first ?? $0 }
            }
        }
        return SoftMask(kind: kind, group: child.finish(), bounds: bounds, backdrop: backdrop, transfer: transfer)
    }
}
