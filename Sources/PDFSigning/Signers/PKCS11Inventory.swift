public import AutographJSON
import PDFCore
import PKCS11

/// What a PKCS#11 module offers: its tokens, and on each its private keys and certificates.
public struct PKCS11Inventory: Sendable {
    /// One object of a token.
    public struct Object: Sendable {
        /// `private key` or `certificate`.
        public var kind: String
        /// Its label (`CKA_LABEL`).
        public var label: String
        /// The id, in hexadecimal.
        public var id: String
        /// A certificate's subject.
        public var subject: String?
        /// A certificate's validity, as text.
        public var validity: String?
    }

    /// The slot that holds the token.
    public var slot: UInt
    /// The token's label.
    public var label: String
    /// The token's serial number.
    public var serialNumber: String
    /// The token's manufacturer.
    public var manufacturer: String
    /// The token's model.
    public var model: String
    /// Whether the user PIN is locked after too many wrong tries.
    public var pinLocked: Bool
    /// Its private keys (with a PIN) and certificates.
    public var objects: [Object]

    /// The tokens of `module` (only `tokenLabel`'s when given), logged in with `pin` when given.
    /// - Throws: as ``PKCS11Signer/init(module:tokenLabel:tokenSerial:keyLabel:keyID:pin:chain:scheme:allowExpired:now:)``.
    public static func read(module path: String, tokenLabel: String?, pin: String?) throws(SigningError) -> [Self] {
        do {
            let module = try PKCS11Module.load(path)
            var tokens: [Self] = []
            for slot in try module.slots() {
                let info = try module.token(in: slot)
                guard info.initialized, tokenLabel == nil || info.label == tokenLabel else { continue }
                let token = try PKCS11Token(module: module, label: info.label, serial: info.serialNumber)
                if let pin { try token.login(pin: pin) }
                var objects: [Object] = []
                // Without a PIN, only what any caller may see (the process's login is not lent).
                for key in try pin == nil && info.loginRequired ? [] : token.objects(.privateKey) {
                    objects.append(Object(kind: "private key", label: key.label, id: Hex.uppercase(key.id)))
                }
                for object in try token.objects(.certificate) {
                    let certificate = try token.value(of: object).flatMap { try? Certificate(der: $0) }
                    objects.append(
                        Object(
                            kind: "certificate", label: object.label, id: Hex.uppercase(object.id),
                            subject: certificate?.subject,
                            validity: certificate.map {
                                "\(PDFDate(seconds: $0.notBefore).displayString) – \(PDFDate(seconds: $0.notAfter).displayString)"
                            }))
                }
                tokens.append(
                    Self(
                        slot: slot, label: info.label, serialNumber: info.serialNumber, manufacturer: info.manufacturer,
                        model: info.model, pinLocked: info.pinLocked, objects: objects))
            }
            return tokens
        } catch {
            throw PKCS11Signer.signingError(error)
        }
    }

    /// `{slot, label, serial, manufacturer, model, pinLocked, objects: [{kind, label, id, subject, validity}]}`.
    public var json: JSONValue {
        .object(sortingKeys: [
            "slot": .int(Int(slot)), "label": .string(label), "serial": .string(serialNumber),
            "manufacturer": .string(manufacturer), "model": .string(model), "pinLocked": .bool(pinLocked),
            "objects": .array(
                objects.map { object in
                    .object(sortingKeys: [
                        "kind": .string(object.kind), "label": .string(object.label), "id": .string(object.id),
                        "subject": object.subject.map { .string($0) } ?? .null,
                        "validity": object.validity.map { .string($0) } ?? .null,
                    ])
                }),
        ])
    }
}
