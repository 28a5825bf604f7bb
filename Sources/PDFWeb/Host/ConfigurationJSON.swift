public import AutographJSON
import PDFAnnotations
import PDFAuthoring
import PDFCore
public import PDFSession
import PDFSigning

/// The configuration as JSON: what `POST /api/configuration`, a host's answer (`configuration`)
/// and `autograph serve --config FILE` change. Every member is optional; an unknown member, a value
/// of the wrong type or out of range is refused with the member's path, and nothing changes.
///
/// ```json
/// {"viewer": {"acceptsInput": false, "backgroundColor": "#202020"},
///  "capture": {"displayText": "I agree", "position": [30, 30, 200, 40]},
///  "appearance": {"signerName": "Ada Lovelace"}}
/// ```
public enum ConfigurationJSON {
    /// The longest text a member takes (a display text, a signer's name, a description).
    static let maxText = 500

    /// Who may change what.
    public enum Scope: Sendable {
        /// Everything: the server's own configuration (`--config`), the API token, the host's backend.
        case all
        /// How the viewer shows the document and the capture dialog (`viewer`, `capture`): what a
        /// browser may change. The person signing controls their browser, so what is signed in the
        /// host's name — the appearance, the attributes, the watermark — is not theirs to change.
        case viewerAndCapture
    }

    /// Applies `changes` to `viewer` and `signature` (its capture and appearance).
    /// - Throws: `WebError` 400 naming the member at fault, 403 for a member `scope` does not
    ///   allow; `viewer` and `signature` are then unchanged.
    public static func apply(
        _ changes: JSONValue, viewer: inout ViewerConfiguration, signature: inout SignatureConfiguration,
        scope: Scope = .all
    ) throws(WebError) {
        var newViewer = viewer
        var newSignature = signature
        for (key, value) in try members(changes, "the configuration") {
            if scope == .viewerAndCapture, !["viewer", "capture"].contains(key) {
                throw WebError.forbidden(
                    "the \(key.prefix(40)) configuration is the host's: change it with the API token, --config or "
                        + "--decisions (a browser changes viewer and capture only)")
            }
            switch key {
            case "viewer": try apply(value, to: &newViewer)
            case "capture": try apply(value, to: &newSignature.capture)
            case "appearance": try apply(value, to: &newSignature.appearance)
            case "attributes": try apply(value, to: &newSignature.attributes)
            case "watermark": try apply(value, to: &newSignature.watermark)
            default:
                throw unknown(key, "the configuration", ["viewer", "capture", "appearance", "attributes", "watermark"])
            }
        }
        viewer = newViewer
        signature = newSignature
    }

    /// The configuration as `GET /api/configuration` answers it (the same members `apply` takes).
    public static func json(viewer: ViewerConfiguration, signature: SignatureConfiguration) -> JSONValue {
        let appearance = signature.appearance
        return .object([
            ("viewer", SessionJSON.viewer(viewer)), ("capture", SessionJSON.capture(signature.capture)),
            (
                "appearance",
                .object([
                    ("handwrittenSignatureEnabled", .bool(appearance.handwrittenSignatureEnabled)),
                    ("signerName", appearance.signerName.map { .string($0) } ?? .null),
                    ("dateTimePattern", .string(appearance.dateTimePattern.pattern)),
                    ("signatureDescription", appearance.signatureDescription.map { .string($0) } ?? .null),
                    ("invisibleSignature", .bool(appearance.invisibleSignature)),
                    ("proposedWidth", .double(appearance.proposedWidth)),
                    ("proposedHeight", .double(appearance.proposedHeight)),
                    ("signerNameFontSize", .double(appearance.signerNameFontSize)),
                    ("dateFontSize", .double(appearance.dateFontSize)),
                ])
            ),
            ("attributes", attributes(signature.attributes)),
            (
                "watermark",
                .object([
                    ("title", .string(signature.watermark.title)), ("showsDate", .bool(signature.watermark.showsDate)),
                    ("datePattern", .string(signature.watermark.datePattern.pattern)),
                    ("rotation", .double(signature.watermark.rotation)),
                    ("color", SessionJSON.color(signature.watermark.color)),
                    ("opacity", .double(signature.watermark.opacity)),
                    ("titleSize", signature.watermark.titleSize.map { .double($0) } ?? .null),
                ])
            ),
        ])
    }

    static func attributes(_ attributes: SignatureAttributes) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        return .object([
            ("signatureName", text(attributes.signatureName)),
            ("signatureLocation", text(attributes.signatureLocation)),
            ("signatureReason", text(attributes.signatureReason)),
            ("acceptedReason", .string(attributes.acceptedReason)),
            ("refusedReason", .string(attributes.refusedReason)),
            ("estimatedSignatureSize", .int(attributes.estimatedSignatureSize)),
            ("digestAlgorithm", .string(attributes.digestAlgorithm.rawValue)),
            ("fieldLock", .string((attributes.fieldLock ?? .none).rawValue)),
        ])
    }

    static let viewerKeys = [
        "continuousScrolling", "verticalScrolling", "twoPageSpreads", "firstPageAlone", "backgroundColor",
        "showsToolbar", "toolbarHeight", "showsPageNumber", "allowsRotation", "acceptsInput", "searchHighlightColor",
    ]

    static func apply(_ json: JSONValue, to viewer: inout ViewerConfiguration) throws(WebError) {
        for (key, value) in try members(json, "viewer") {
            let path = "viewer." + key
            switch key {
            case "continuousScrolling": viewer.continuousScrolling = try bool(value, path)
            case "verticalScrolling": viewer.verticalScrolling = try bool(value, path)
            case "twoPageSpreads": viewer.twoPageSpreads = try bool(value, path)
            case "firstPageAlone": viewer.firstPageAlone = try bool(value, path)
            case "backgroundColor": viewer.backgroundColor = try color(value, path)
            case "showsToolbar": viewer.showsToolbar = try bool(value, path)
            case "toolbarHeight": viewer.toolbarHeight = try number(value, path, in: 36...400)
            case "showsPageNumber": viewer.showsPageNumber = try bool(value, path)
            case "allowsRotation": viewer.allowsRotation = try bool(value, path)
            case "acceptsInput": viewer.acceptsInput = try bool(value, path)
            case "searchHighlightColor": viewer.searchHighlightColor = try color(value, path)
            default: throw unknown(key, "viewer", viewerKeys)
            }
        }
    }

    static func apply(_ json: JSONValue, to capture: inout SignatureCaptureConfiguration) throws(WebError) {
        for (key, value) in try members(json, "capture") {
            let path = "capture." + key
            switch key {
            case "displayText": capture.displayText = try optionalText(value, path)
            case "textColor": capture.textColor = try color(value, path)
            case "signatureColor": capture.signatureColor = try color(value, path)
            case "position":
                if value == .null {
                    capture.position = nil
                } else {
                    let numbers = (value.arrayValue ?? []).compactMap(\.doubleValue)
                    guard numbers.count == 4, value.arrayValue?.count == 4,
                        numbers.allSatisfy({ (0...20_000).contains($0) }),
                        numbers[2] >= 1, numbers[3] >= 1
                    else {
                        throw WebError.badRequest(
                            "\(path) must be null or [x, y, width, height]: points from 0 to 20000, width and height at least 1"
                        )
                    }
                    capture.position = PDFRectangle(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
                }
            default: throw unknown(key, "capture", ["displayText", "textColor", "signatureColor", "position"])
            }
        }
    }

    static let appearanceKeys = [
        "handwrittenSignatureEnabled", "signerName", "dateTimePattern", "signatureDescription", "invisibleSignature",
        "proposedWidth", "proposedHeight", "signerNameFontSize", "dateFontSize",
    ]

    static func apply(_ json: JSONValue, to appearance: inout VisualSignatureConfiguration) throws(WebError) {
        for (key, value) in try members(json, "appearance") {
            let path = "appearance." + key
            switch key {
            case "handwrittenSignatureEnabled": appearance.handwrittenSignatureEnabled = try bool(value, path)
            case "signerName": appearance.signerName = try optionalText(value, path)
            case "dateTimePattern": appearance.dateTimePattern = try datePattern(value, path)
            case "signatureDescription": appearance.signatureDescription = try optionalText(value, path)
            case "invisibleSignature": appearance.invisibleSignature = try bool(value, path)
            case "proposedWidth": appearance.proposedWidth = try number(value, path, in: 10...2000)
            case "proposedHeight": appearance.proposedHeight = try number(value, path, in: 10...2000)
            case "signerNameFontSize": appearance.signerNameFontSize = try number(value, path, in: 1...500)
            case "dateFontSize": appearance.dateFontSize = try number(value, path, in: 1...500)
            default: throw unknown(key, "appearance", appearanceKeys)
            }
        }
    }

    static let attributeKeys = [
        "signatureName", "signatureLocation", "signatureReason", "acceptedReason", "refusedReason",
        "estimatedSignatureSize", "digestAlgorithm", "fieldLock",
    ]

    static func apply(_ json: JSONValue, to attributes: inout SignatureAttributes) throws(WebError) {
        for (key, value) in try members(json, "attributes") {
            let path = "attributes." + key
            switch key {
            case "signatureName": attributes.signatureName = try optionalText(value, path)
            case "signatureLocation": attributes.signatureLocation = try optionalText(value, path)
            case "signatureReason": attributes.signatureReason = try optionalText(value, path)
            case "acceptedReason": attributes.acceptedReason = try optionalText(value, path) ?? "accepted"
            case "refusedReason": attributes.refusedReason = try optionalText(value, path) ?? "refused"
            case "estimatedSignatureSize":
                attributes.estimatedSignatureSize = Int(try number(value, path, in: 4096...1_048_576))
            case "digestAlgorithm":
                guard let name = value.stringValue, let algorithm = DigestAlgorithm(rawValue: name) else {
                    throw WebError.badRequest("\(path) must be \"sha256\", \"sha384\" or \"sha512\"")
                }
                attributes.digestAlgorithm = algorithm
            case "fieldLock":
                guard let name = value.stringValue, let lock = SignatureFieldLock(rawValue: name) else {
                    throw WebError.badRequest("\(path) must be \"none\", \"filled\" or \"all\"", member: path)
                }
                attributes.fieldLock = lock
            default: throw unknown(key, "attributes", attributeKeys)
            }
        }
    }

    static let watermarkKeys = ["title", "showsDate", "datePattern", "rotation", "color", "opacity", "titleSize"]

    static func apply(_ json: JSONValue, to watermark: inout WatermarkAppearance) throws(WebError) {
        for (key, value) in try members(json, "watermark") {
            let path = "watermark." + key
            switch key {
            case "title":
                guard let title = try optionalText(value, path), !title.isEmpty else {
                    throw WebError.badRequest("\(path) must be a text of 1 to \(maxText) characters")
                }
                watermark.title = title
            case "showsDate": watermark.showsDate = try bool(value, path)
            case "datePattern": watermark.datePattern = try datePattern(value, path)
            case "rotation": watermark.rotation = try number(value, path, in: -360...360)
            case "color": watermark.color = try color(value, path)
            case "opacity": watermark.opacity = try number(value, path, in: 0.05...1)
            case "titleSize": watermark.titleSize = value == .null ? nil : try number(value, path, in: 4...400)
            default: throw unknown(key, "watermark", watermarkKeys)
            }
        }
    }

    // MARK: - Checked values

    static func members(_ json: JSONValue, _ path: String) throws(WebError) -> [(String, JSONValue)] {
        guard case .object(let members) = json else { throw WebError.badRequest("\(path) must be an object") }
        return members
    }

    static func unknown(_ key: String, _ path: String, _ known: [String]) -> WebError {
        let shown =
            key.unicodeScalars.count > 40 ? String(String.UnicodeScalarView(key.unicodeScalars.prefix(40))) + "…" : key
        return WebError.badRequest(
            "\(path) has no member \(JSONValue.quoted(shown)) (it has \(known.joined(separator: ", ")))")
    }

    static func bool(_ value: JSONValue, _ path: String) throws(WebError) -> Bool {
        guard case .bool(let bool) = value else { throw WebError.badRequest("\(path) must be true or false") }
        return bool
    }

    static func number(_ value: JSONValue, _ path: String, in range: ClosedRange<Double>) throws(WebError) -> Double {
        guard let number = value.doubleValue, number.isFinite, range.contains(number) else {
            throw WebError.badRequest("\(path) must be a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    static func color(_ value: JSONValue, _ path: String) throws(WebError) -> PDFColor {
        guard let text = value.stringValue, text.hasPrefix("#"), let color = SessionJSON.color(from: text) else {
            throw WebError.badRequest("\(path) must be a colour written #rrggbb")
        }
        return color
    }

    /// A date pattern of 1 to 64 characters (`yyyy-MM-dd HH:mm`).
    static func datePattern(_ value: JSONValue, _ path: String) throws(WebError) -> DatePattern {
        guard let pattern = try optionalText(value, path), !pattern.isEmpty, pattern.utf8.count <= 256,
            pattern.count <= 64
        else {
            throw WebError.badRequest("\(path) must be a date pattern of 1 to 64 characters")
        }
        return DatePattern(pattern)
    }

    /// A text of at most `maxText` characters without control characters, or nil for `null`.
    static func optionalText(_ value: JSONValue, _ path: String) throws(WebError) -> String? {
        if value == .null { return nil }
        guard let text = value.stringValue, text.utf8.count <= 4 * maxText, text.count <= maxText,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw WebError.badRequest(
                "\(path) must be null or a text of at most \(maxText) characters without control characters")
        }
        return text
    }
}
