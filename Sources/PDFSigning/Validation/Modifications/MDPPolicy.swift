import PDFCore
import PDFForms

/// The modification detection and prevention (MDP) rules in force for one signature: the
/// document's certification and the field locks of the signatures up to it (ISO 32000-2 §12.8.2),
/// read from the document as of the signature's revision, so a later update cannot add or lift them.
struct MDPPolicy: Sendable {
    var certification: CertificationLevel?
    var locks: [FieldLock]

    /// The policy of a signature whose revision is `document` (opened as of that revision).
    init(document: PDFDocument) {
        certification = Self.certification(in: document)
        locks = Self.locks(in: document)
    }

    init(certification: CertificationLevel?, locks: [FieldLock]) {
        self.certification = certification
        self.locks = locks
    }

    /// Whether a lock covers the field `name`, and which signature's lock it is.
    func lock(covering name: String) -> FieldLock? { locks.first { $0.locks(name) } }

    // MARK: Reading

    /// `/Perms /DocMDP` of the catalog (§12.8.4), or else a signed signature dictionary with a
    /// `/DocMDP` reference (§12.8.1, Table 255, `/Reference`); `/P` is 2 when absent (Table 257).
    static func certification(in document: PDFDocument) -> CertificationLevel? {
        if let perms = document.resolve(document.catalog?[.perms] ?? .null).dictionaryValue,
            let signature = document.resolve(perms[.docMDP] ?? .null).dictionaryValue
        {
            return level(of: signature, in: document) ?? .formFilling
        }
        guard let form = AcroForm(document: document) else { return nil }
        for field in form.signatureFields {
            guard let signature = document.resolve(field.dictionary[.v] ?? .null).dictionaryValue,
                let level = level(of: signature, in: document)
            else { continue }
            return level
        }
        return nil
    }

    /// The `/P` of a signature dictionary's DocMDP transform, nil when it has none.
    static func level(of signature: PDFDictionary, in document: PDFDocument) -> CertificationLevel? {
        for reference in transforms(of: signature, in: document) {
            guard document.resolve(reference, .transformMethod)?.nameValue == .docMDP else {
                continue
            }
            let parameters = document.resolve(reference, .transformParams)?.dictionaryValue
            let value = parameters.flatMap { document.resolve($0, .p)?.intValue } ?? 2
            // Values other than 1, 2 and 3 are invalid; the most restrictive reading is the safe one.
            return CertificationLevel(rawValue: value) ?? .noChanges
        }
        return nil
    }

    /// The locks of every signed signature field: the `/FieldMDP` transforms of its signature
    /// dictionary and the field's `/Lock`.
    static func locks(in document: PDFDocument) -> [FieldLock] {
        guard let form = AcroForm(document: document) else { return [] }
        var result: [FieldLock] = []
        for field in form.signatureFields where field.value == .signature(signed: true) {
            let signature = document.resolve(field.dictionary[.v] ?? .null).dictionaryValue
            for reference in signature.map({ transforms(of: $0, in: document) }) ?? [] {
                guard document.resolve(reference, .transformMethod)?.nameValue == .fieldMDP,
                    let parameters = document.resolve(reference, .transformParams)?.dictionaryValue,
                    let lock = lock(parameters, field: field.name, in: document)
                else { continue }
                result.append(lock)
            }
            if let lockDictionary = document.resolve(field.dictionary[.lock] ?? .null).dictionaryValue,
                let lock = lock(lockDictionary, field: field.name, in: document), !result.contains(lock)
            {
                result.append(lock)
            }
        }
        return result
    }

    /// A lock from a `/TransformParams` or `/Lock` dictionary (`/Action`, `/Fields`).
    static func lock(_ dictionary: PDFDictionary, field: String, in document: PDFDocument) -> FieldLock? {
        let names = (document.resolve(dictionary, .fields)?.arrayValue ?? []).prefix(10_000).compactMap {
            document.resolve($0).stringValue?.text
        }
        let scope: SignatureRequest.FieldLock
        switch document.resolve(dictionary, .action)?.nameValue?.string {
        case "All": scope = .all
        case "Include": scope = .include(names)
        case "Exclude": scope = .exclude(names)
        default: return nil
        }
        return FieldLock(signatureField: field, scope: scope)
    }

    /// The signature reference dictionaries of `/Reference` (§12.8.1, Table 256).
    static func transforms(of signature: PDFDictionary, in document: PDFDocument) -> [PDFDictionary] {
        let references = document.resolve(signature, .reference)?.arrayValue ?? []
        return references.prefix(64).compactMap { document.resolve($0).dictionaryValue }
    }
}
