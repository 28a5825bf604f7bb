import PDFCore

extension ContentInterpreter {
    // MARK: Colour operators (§8.6.8)

    func setColorSpace(_ name: PDFName, stroking: Bool) {
        guard !uncoloredGlyph else { return }
        let object: PDFObject
        switch name.string {
        case "DeviceGray", "DeviceRGB", "DeviceCMYK", "Pattern": object = .name(name)
        default:
            guard let found = resource("ColorSpace", name) else {
                warn("colour space /\(name.string) is not in the resources")
                return
            }
            object = found
        }
        do {
            let space = try graphics.colorSpace(object, resources: resources)
            var color = ColorState()
            color.space = space
            color.components = space.initialColor
            if stroking { state.stroke = color } else { state.fill = color }
        } catch {
            warn("colour space /\(name.string): \(error.message)")
        }
    }

    func setColor(_ operands: [PDFObject], stroking: Bool) {
        guard !uncoloredGlyph else { return }
        var color = stroking ? state.stroke : state.fill
        var values = operands
        if color.space.isPattern {
            if case .name(let name)? = values.last {
                color.pattern = name
                values.removeLast()
            }
        } else {
            color.pattern = nil
        }
        let numbers = values.compactMap(\.numberValue)
        if !numbers.isEmpty || !color.space.isPattern {
            let expected =
                color.space.isPattern ? (color.space.patternBase?.componentCount ?? 0) : color.space.componentCount
            guard numbers.count >= expected else {
                warn("a colour with \(numbers.count) components where \(expected) are needed")
                return
            }
            color.components = Array(numbers.suffix(expected))
        }
        if stroking { state.stroke = color } else { state.fill = color }
    }

    func setDeviceColor(_ space: ColorSpace, _ components: [Double], stroking: Bool) {
        guard !uncoloredGlyph else { return }
        var color = ColorState()
        // DefaultGray/DefaultRGB/DefaultCMYK in the resources replace the device spaces (§8.6.5.6).
        let name: String
        switch space.componentCount {
        case 1: name = "DeviceGray"
        case 3: name = "DeviceRGB"
        default: name = "DeviceCMYK"
        }
        color.space =
            (try? ColorSpace.resolve(
                .name(PDFName(name)), resources: resources, document: document, icc: graphics.options.icc))
            ?? space
        color.components = components
        if stroking { state.stroke = color } else { state.fill = color }
    }

    // MARK: Paint

    /// The paint of the current fill or stroke colour, or nil when it cannot be drawn.
    func currentPaint(stroking: Bool) -> Paint? {
        if let forcedColor { return .color(forcedColor) }
        let color = stroking ? state.stroke : state.fill
        // A Separation or DeviceN of /None colorants marks nothing (§8.6.6.4).
        if color.space.paintsNothing { return nil }
        guard color.space.isPattern else { return .color(color.space.rgb(color.components)) }
        guard let name = color.pattern else {
            warn("a pattern colour without a pattern name")
            return nil
        }
        return patternPaint(name, underlying: color)
    }

    /// A shading or tiling pattern from the resources (§8.7).
    func patternPaint(_ name: PDFName, underlying color: ColorState) -> Paint? {
        guard graphics.options.includesPaints else { return .color(RGB(0, 0, 0)) }
        guard let object = resource("Pattern", name) else {
            warn("pattern /\(name.string) is not in the resources")
            return nil
        }
        let resolved = document.resolve(object)
        guard let dictionary = resolved.dictionaryValue ?? resolved.streamValue?.dictionary else {
            warn("pattern /\(name.string) is not a dictionary")
            return nil
        }
        let matrix = (PDFMatrix(dictionary[.matrix], document: document) ?? .identity).concatenating(baseMatrix)
        switch dictionary[.patternType]?.intValue {
        case 2:
            guard let shadingObject = dictionary[.shading] else {
                warn("shading pattern /\(name.string) has no /Shading")
                return nil
            }
            do {
                let shading = try Shading(
                    shadingObject, resources: resources, document: document, icc: graphics.options.icc)
                return .shading(shading, matrix: matrix)
            } catch {
                warn("shading pattern /\(name.string): \(error.message)")
                return nil
            }
        case 1:
            guard let stream = resolved.streamValue else {
                warn("tiling pattern /\(name.string) is not a stream")
                return nil
            }
            return entering(object.referenceValue.map { .object($0) }, "tiling pattern /\(name.string)") {
                tilingPaint(name, stream: stream, matrix: matrix, underlying: color)
            }
        default:
            warn("pattern /\(name.string) has an unknown /PatternType")
            return nil
        }
    }

    private func tilingPaint(_ name: PDFName, stream: PDFStream, matrix: PDFMatrix, underlying: ColorState) -> Paint? {
        let dictionary = stream.dictionary
        guard
            let bboxArray = document.resolve(dictionary[.bBox] ?? .null).arrayValue?.compactMap(
                \.numberValue),
            bboxArray.count == 4,
            let xStep = dictionary[.xStep].flatMap({ document.resolve($0).numberValue }),
            let yStep = dictionary[.yStep].flatMap({ document.resolve($0).numberValue }),
            xStep != 0, yStep != 0
        else {
            warn("tiling pattern /\(name.string) lacks /BBox, /XStep or /YStep")
            return nil
        }
        let bytes: [UInt8]
        do {
            bytes = try stream.decodedData(maxSize: 1 << 26)
        } catch {
            warn("tiling pattern /\(name.string): \(error.message)")
            return nil
        }
        let patternResources = document.resolve(dictionary[.resources] ?? .null).dictionaryValue
        guard let child = child(resources: patternResources, ctm: .identity) else { return nil }
        if dictionary[.paintType]?.intValue == 2 {
            // Uncoloured: the cell's shape painted in the colour given with the pattern (§8.7.3.3).
            let base = underlying.space.patternBase ?? .deviceGray
            child.forcedColor = base.rgb(underlying.components)
        }
        child.run(bytes: bytes)
        for warning in child.warnings { warn(warning) }
        let bbox = PDFRectangle(x0: bboxArray[0], y0: bboxArray[1], x1: bboxArray[2], y1: bboxArray[3])
        return .tiling(TilingPattern(cell: child.finish(), bbox: bbox, xStep: xStep, yStep: yStep, matrix: matrix))
    }

    /// `sh`: a shading over the current clip (§8.7.4.2).
    func paintShading(_ name: PDFName) {
        guard graphics.options.includesPaints else { return }
        guard let object = resource("Shading", name) else {
            warn("shading /\(name.string) is not in the resources")
            return
        }
        do {
            var shading = try Shading(object, resources: resources, document: document, icc: graphics.options.icc)
            shading.background = nil  // sh ignores /Background
            emit(.shading(shading, ctm: state.ctm, state: state.drawState(stroking: false)))
        } catch {
            warn("shading /\(name.string): \(error.message)")
        }
    }
}
