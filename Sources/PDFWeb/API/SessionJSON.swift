import AutographJSON
import PDFAuthoring
import PDFCore
import PDFForms
import PDFGraphics
import PDFSession
import PDFSigning

/// The JSON forms of the session's values (docs/web-api.md).
enum SessionJSON {
    static func rect(_ rect: PDFRectangle) -> JSONValue {
        .array([.double(rect.x0), .double(rect.y0), .double(rect.x1), .double(rect.y1)])
    }

    static func color(_ color: PDFColor) -> JSONValue {
        let (r, g, b): (Double, Double, Double) =
            switch color {
            case .gray(let gray): (gray, gray, gray)
            case .rgb(let r, let g, let b): (r, g, b)
            case .cmyk(let c, let m, let y, let k): ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
            }
        let hex = [r, g, b].map { component -> String in
            let byte = Int((min(max(component, 0), 1) * 255).rounded())
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
        return .string("#" + hex.joined())
    }

    /// `#rrggbb` (or `#rgb`) as an RGB colour.
    static func color(from text: String) -> PDFColor? {
        guard text.utf8.count <= 7 else { return nil }
        var digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        guard digits.count == 6, let value = Int(digits, radix: 16) else { return nil }
        return .rgb(
            Double((value >> 16) & 0xFF) / 255, Double((value >> 8) & 0xFF) / 255, Double(value & 0xFF) / 255)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// A field: `FieldInfo`'s members, and its widgets when the form field is at hand.
    static func field(_ info: FieldInfo, widgets: [Widget]? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(info.name)), ("kind", .string(info.kind)),
            ("page", info.pageIndex.map { .int($0) } ?? .null), ("rect", info.rect.map(rect) ?? .null),
            ("readOnly", .bool(info.isReadOnly)), ("required", .bool(info.isRequired)),
            ("signed", .bool(info.isSigned)),
            ("value", .string(info.value)), ("label", info.label.map { .string($0) } ?? .null),
            ("options", .array(info.options.map { .string($0) })),
        ]
        if let widgets {
            members.append(
                (
                    "widgets",
                    .array(
                        widgets.map { widget in
                            .object([("page", widget.pageIndex.map { .int($0) } ?? .null), ("rect", rect(widget.rect))])
                        })
                ))
        }
        return .object(members)
    }

    static func fields(_ infos: [FieldInfo]) -> JSONValue { .object([("fields", .array(infos.map { field($0) }))]) }

    static func strokes(_ strokes: [InkStroke]) -> JSONValue {
        .array(
            strokes.map { stroke in
                .array(
                    stroke.points.map { point in
                        var members: [(String, JSONValue)] = [("x", .double(point.x)), ("y", .double(point.y))]
                        if let time = point.time { members.append(("t", .double(time))) }
                        if let pressure = point.pressure { members.append(("p", .double(pressure))) }
                        return .object(members)
                    })
            })
    }

    static func savedSignature(_ saved: SavedSignature) -> JSONValue {
        .object([
            ("id", .int(saved.id)), ("created", .string(saved.created.pdfString)), ("strokes", strokes(saved.strokes)),
        ])
    }

    static func error(_ error: SessionError) -> JSONValue {
        .object([
            ("code", .string(error.code.rawValue)), ("signoCode", .int(error.signoCode)),
            ("message", .string(error.message)),
        ])
    }

    /// The phase's name (`editing`, `selectingField` …).
    static func phaseName(_ phase: SigningWorkflow.Phase) -> String {
        switch phase {
        case .editing: "editing"
        case .selectingField: "selectingField"
        case .capturingSignature: "capturingSignature"
        case .choosingSavedSignature: "choosingSavedSignature"
        case .positioning: "positioning"
        case .preparing: "preparing"
        case .confirming: "confirming"
        case .awaitingSignature: "awaitingSignature"
        case .notes: "notes"
        case .finished: "finished"
        }
    }

    /// `{"phase": …}` with what the phase waits on: the candidates of a field choice, the ids of a
    /// saved-signature choice, the reason of a finished workflow.
    static func phase(_ phase: SigningWorkflow.Phase) -> JSONValue {
        var members: [(String, JSONValue)] = [("phase", .string(phaseName(phase)))]
        switch phase {
        case .selectingField(let candidates): members.append(("candidates", .array(candidates.map { .string($0) })))
        case .choosingSavedSignature(let ids): members.append(("ids", .array(ids.map { .int($0) })))
        case .finished(let reason): members.append(("reason", .string(reason)))
        default: break
        }
        return .object(members)
    }

    /// ``phase(_:)`` with everything a viewer needs to show the step again after a reload: the field
    /// being signed and the capture settings while capturing, the proposed place while positioning,
    /// the page and preview while confirming.
    static func phase(of session: DocumentSession) async -> JSONValue {
        let workflow = await session.workflow
        guard case .object(var members) = phase(workflow.phase) else { return phase(workflow.phase) }
        switch workflow.phase {
        case .capturingSignature:
            members.append(("field", workflow.plan?.field.map { .string($0) } ?? .null))
            members.append(("capture", capture(await session.signatureConfiguration.capture)))
        case .positioning:
            if let placement = workflow.proposedPlacement {
                members += [("page", .int(placement.pageIndex)), ("rect", rect(placement.rect))]
            }
        case .confirming, .preparing, .awaitingSignature:
            members += [("page", .int(await session.signaturePageIndex)), ("url", .string("/api/preview.png"))]
            members += changedPages(await session.changedPageIndices)
            members.append(("refusal", .bool(workflow.plan?.purpose == .refuse)))
        default: break
        }
        return .object(members)
    }

    /// The most pages a preview lists: a refusal changes every page, and a document of 100 000
    /// pages must not make every event and state answer that long.
    static let listedPreviewPages = 100

    /// `"pages"` (the first ``listedPreviewPages`` changed pages) and `"changedPageCount"` (all of them).
    static func changedPages(_ pages: [Int]) -> [(String, JSONValue)] {
        [("pages", .array(pages.prefix(listedPreviewPages).map { .int($0) })), ("changedPageCount", .int(pages.count))]
    }

    /// The capture pad's settings: `{"displayText", "textColor", "signatureColor", "position"}`.
    /// Who a signature made now is made by: `{"name", "issuer", "subject", "notAfter"}` from the
    /// signer's certificate (common names; `notAfter` in seconds since 1970), or null when the CMS
    /// comes from elsewhere (a host, a delegate) and no certificate is known before it does.
    static func signer(_ mode: SigningMode) -> JSONValue {
        guard case .signer(let signer) = mode, let certificate = signer.certificates.first else { return .null }
        func commonName(_ distinguished: String) -> String {
            for part in distinguished.split(separator: ",") {
                let trimmed = part.drop { $0 == " " }
                if trimmed.hasPrefix("CN=") { return String(trimmed.dropFirst(3)) }
            }
            return distinguished
        }
        return .object([
            ("name", .string(signer.signerName ?? commonName(certificate.subject))),
            ("issuer", .string(commonName(certificate.issuer))), ("subject", .string(certificate.subject)),
            ("notAfter", .int(certificate.notAfter)),
        ])
    }

    static func capture(_ configuration: SignatureCaptureConfiguration) -> JSONValue {
        let position = configuration.position.map { box -> JSONValue in
            .array([.double(box.x0), .double(box.y0), .double(box.width), .double(box.height)])
        }
        return .object([
            ("displayText", configuration.displayText.map { .string($0) } ?? .null),
            ("textColor", color(configuration.textColor)), ("signatureColor", color(configuration.signatureColor)),
            ("position", position ?? .null),
        ])
    }

    static func viewer(_ viewer: ViewerConfiguration) -> JSONValue {
        .object([
            ("continuousScrolling", .bool(viewer.continuousScrolling)),
            ("verticalScrolling", .bool(viewer.verticalScrolling)),
            ("twoPageSpreads", .bool(viewer.twoPageSpreads)), ("firstPageAlone", .bool(viewer.firstPageAlone)),
            ("backgroundColor", color(viewer.backgroundColor)), ("showsToolbar", .bool(viewer.showsToolbar)),
            ("toolbarHeight", .double(viewer.toolbarHeight)), ("showsPageNumber", .bool(viewer.showsPageNumber)),
            ("allowsRotation", .bool(viewer.allowsRotation)), ("acceptsInput", .bool(viewer.acceptsInput)),
            ("searchHighlightColor", color(viewer.searchHighlightColor)),
        ])
    }

    static func quad(_ quad: TextQuad) -> JSONValue {
        .array(
            [quad.lowerLeft, quad.lowerRight, quad.upperRight, quad.upperLeft].flatMap {
                [.double($0.x), .double($0.y)]
            })
    }
}
