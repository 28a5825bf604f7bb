public import PDFAuthoring
public import PDFCore

/// The raw handwriting of a signature and the device that captured it (signo biometrics): kept
/// encrypted to a biometrics certificate inside the signed revision, so the signature covers it
/// and only the holder of the certificate's key can read it back.
public struct BiometricCapture: Sendable, Codable, Equatable {
    /// The handwriting as captured: every point with its time and pressure when the device gives them.
    public var strokes: [InkStroke]
    /// Free-form facts about the device (model, sampling rate, pressure levels …).
    public var device: [String: String]

    /// A capture of `strokes`, with facts about the device that took them.
    public init(strokes: [InkStroke], device: [String: String] = [:]) {
        self.strokes = strokes
        self.device = device
    }

    /// The JSON form stored (before encryption): `{"strokes": [[[x, y, t, p] …] …], "device": {…}}`.
    public var json: [UInt8] {
        var text = "{\"strokes\": ["
        text += strokes.map { stroke in
            "["
                + stroke.points.map { point in
                    "["
                        + [point.x, point.y, point.time ?? 0, point.pressure ?? 0].map {
                            PDFReal.format($0, precision: 6)
                        }.joined(separator: ", ") + "]"
                }.joined(separator: ", ") + "]"
        }.joined(separator: ", ")
        text += "], \"device\": {"
        text += device.keys.sorted().map { "\(quote($0)): \(quote(device[$0]!))" }.joined(separator: ", ")
        text += "}}"
        return Array(text.utf8)
    }

    private func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20:
                output += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// The key of the signature field dictionary that references the encrypted data.
    public static let fieldKey = PDFName.autographBiometrics
}

/// Reads the biometric data of a signed document back with the biometrics certificate's key.
public enum BiometricReader {
    /// The decrypted JSON of field `fieldName` (or of the first field that has biometric data).
    /// - Throws: `.signingFailed` when there is none or the key does not open it.
    public static func read(
        _ document: PDFDocument, fieldName: String?, key: PrivateKey, certificate: Certificate? = nil
    ) throws(SigningError) -> (field: String, json: [UInt8]) {
        guard let catalog = document.catalog,
            let fields = document.resolve(
                document.resolve(catalog[.acroForm] ?? .null).dictionaryValue?[.fields] ?? .null
            ).arrayValue
        else { throw SigningError(.signingFailed, "the document has no form, so no biometric data") }
        var stack = fields.map { ($0, "") }
        var visited = Set<PDFReference>()
        while let (object, prefix) = stack.popLast() {
            if let reference = object.referenceValue, !visited.insert(reference).inserted { continue }
            guard let field = document.resolve(object).dictionaryValue else { continue }
            let partial = document.resolve(field[.t] ?? .null).stringValue?.text
            let name = [prefix, partial ?? ""].filter { !$0.isEmpty }.joined(separator: ".")
            for kid in document.resolve(field[.kids] ?? .null).arrayValue ?? [] { stack.append((kid, name)) }
            guard let stream = document.resolve(field[BiometricCapture.fieldKey] ?? .null).streamValue,
                fieldName == nil || fieldName == name
            else { continue }
            let envelope: [UInt8]
            do {
                envelope = try stream.decodedData()
            } catch {
                throw SigningError(.malformedData, "the biometric data of '\(name)' cannot be read: \(error.message)")
            }
            return (name, try Envelope.open(envelope, key: key, certificate: certificate))
        }
        throw SigningError(
            .signingFailed, fieldName.map { "field '\($0)' has no biometric data" } ?? "no field has biometric data")
    }
}
