import PDFCore
import PDFForms

/// Builds the update of a signature: the signature dictionary with placeholders, the field and its
/// widget (new or existing), the page's `/Annots`, the form's `/Fields` and `/SigFlags`,
/// certification (`/Perms /DocMDP`), field locks (`/Lock`, FieldMDP) and fields made read-only.
struct SignatureUpdateBuilder {
    let base: PDFDocument
    let request: SignatureRequest
    var update: IncrementalUpdate
    var fieldName = ""
    private var edits: [PDFReference: PDFDictionary] = [:]
    private var editOrder: [PDFReference] = []

    init(base: PDFDocument, request: SignatureRequest, writeOptions: WriteOptions) {
        self.base = base
        self.request = request
        self.update = IncrementalUpdate(base: base, options: writeOptions)
    }

    mutating func build(contentsSize: Int, signerName: String?) throws(SigningError) {
        let base = self.base
        let form = AcroForm(document: base)
        let existing = request.fieldName.flatMap { name in form?.field(named: name) }
        if let existing, existing.kind != .signature {
            throw SigningError(
                .invalidFieldName, "'\(existing.name)' is a \(existing.kind.rawValue) field, not a signature field")
        }
        if let existing, case .signature(signed: true) = existing.value {
            throw SigningError(.invalidFieldName, "'\(existing.name)' is already signed")
        }
        if existing == nil, request.placement == .existingField {
            throw SigningError(
                .invalidFieldName,
                request.fieldName.map { "no signature field '\($0)' and no place given for a new one" }
                    ?? "no field name and no place given")
        }
        if request.certification != nil,
            form?.signatureFields.contains(where: { $0.value == .signature(signed: true) }) == true
        {
            throw SigningError(.invalidArgument, "a certification signature must be the document's first signature")
        }

        // The signature dictionary (§12.8.1, Table 255), with placeholders patched after serialization.
        // A document time-stamp (Table 260) has no time, name or reason of its own: its token has them.
        let isTimeStamp = request.subFilter == .rfc3161
        var signature: PDFDictionary = [
            .type: .name(isTimeStamp ? .docTimeStamp : .sig), .filter: .name("Adobe.PPKLite"),
            .subFilter: .name(PDFName(request.subFilter.rawValue)),
            .byteRange: .array([0, 9_999_999_999, 9_999_999_999, 9_999_999_999]),
            .contents: .string(PDFString(bytes: [UInt8](repeating: 0, count: contentsSize), isHex: true)),
        ]
        let name = request.name ?? signerName
        if !isTimeStamp {
            signature[.m] = .string(PDFString(text: request.signingTime.pdfString))
            if let name { signature[.name] = .string(PDFString(text: name)) }
            if let location = request.location { signature[.location] = .string(PDFString(text: location)) }
            if let reason = request.reason { signature[.reason] = .string(PDFString(text: reason)) }
            if let contact = request.contactInfo { signature[.contactInfo] = .string(PDFString(text: contact)) }
        }
        signature[.propBuild] = .dictionary([
            .app: .dictionary([
                .name: .name("Autograph"), .rEx: .string(PDFString(text: AutographVersion.string)),
            ])
        ])
        var references: [PDFObject] = []
        if let certification = request.certification {
            references.append(
                .dictionary([
                    .type: .name("SigRef"), .transformMethod: .name("DocMDP"),
                    .transformParams: .dictionary([
                        .type: .name("TransformParams"), .p: .integer(certification.rawValue), .v: .name("1.2"),
                    ]),
                ]))
        }
        let lock = request.lockFields.map(SignatureUpdateBuilder.lockDictionary)
        if let lock {
            var parameters = lock
            parameters[.type] = .name("TransformParams")
            parameters[.v] = .name("1.2")
            references.append(
                .dictionary([
                    .type: .name("SigRef"), .transformMethod: .name("FieldMDP"),
                    .transformParams: .dictionary(parameters),
                ]))
        }
        if !references.isEmpty { signature[.reference] = .array(references) }
        let signatureReference = update.add(.dictionary(signature))
        let biometricsReference = try biometricsObject()

        if let existing {
            fieldName = existing.name
            guard let fieldReference = existing.reference else {
                throw SigningError(.invalidFieldName, "'\(existing.name)' is a direct object and cannot be signed")
            }
            edit(fieldReference) { field in
                field[.v] = .reference(signatureReference)
                if let biometricsReference { field[BiometricCapture.fieldKey] = .reference(biometricsReference) }
                if let lock { field[.lock] = .dictionary(lock.merging([.type: .name("SigFieldLock")])) }
            }
            // /SigFlags 3 belongs to the revision that signs (later revisions must not change the form).
            setSignatureFlags(form: form)
            // A visible existing widget gets an appearance showing the signature.
            for widget in existing.widgets where widget.rect.width > 0 && widget.rect.height > 0 {
                guard let widgetReference = widget.reference else { continue }
                let rotation = widget.pageIndex.map { base.pages[$0].rotation } ?? 0
                let appearance = try appearanceObject(
                    width: widget.rect.width, height: widget.rect.height, rotation: rotation, signerName: name)
                let appearanceReference = update.add(appearance)
                edit(widgetReference) { $0[.ap] = .dictionary([.n: .reference(appearanceReference)]) }
            }
        } else {
            fieldName = request.fieldName ?? SignatureUpdateBuilder.uniqueName(form)
            if form?.field(named: fieldName) != nil {
                throw SigningError(.invalidFieldName, "a field named '\(fieldName)' already exists")
            }
            let pages = base.pages
            var pageIndex = 0
            var rect = PDFRectangle(x0: 0, y0: 0, x1: 0, y1: 0)
            if case .visible(let page, let placement) = request.placement {
                if let problem = PageIndexCheck.problem(page, pageCount: pages.count) {
                    throw SigningError(.invalidArgument, problem)
                }
                guard placement.width > 0, placement.height > 0 else {
                    throw SigningError(.invalidArgument, "the signature rectangle is empty")
                }
                pageIndex = page
                rect = placement
            }
            guard pages.indices.contains(pageIndex), let pageReference = pages[pageIndex].reference else {
                throw SigningError(.invalidArgument, "the document has no page to put the signature field on")
            }
            var field: PDFDictionary = [
                .type: .name("Annot"), .subtype: .name("Widget"), .ft: .name(.sig),
                .t: .string(PDFString(text: fieldName)),
                .v: .reference(signatureReference), .rect: rect.object,
                .p: .reference(pageReference), .f: .integer(132),
            ]
            // A document time-stamp's widget shows nothing and has no appearance: the update then adds
            // nothing a validator could read as a change of what is shown (pyHanko: an LTA update).
            if !isTimeStamp {
                let appearance =
                    try rect.width > 0
                    ? appearanceObject(
                        width: rect.width, height: rect.height, rotation: pages[pageIndex].rotation, signerName: name)
                    : PDFObject.stream(
                        PDFStream(
                            dictionary: [.type: .name("XObject"), .subtype: .name("Form"), .bBox: rect.object],
                            data: [], compress: false))
                field[.ap] = .dictionary([.n: .reference(update.add(appearance))])
            }
            if let lock { field[.lock] = .dictionary(lock.merging([.type: .name("SigFieldLock")])) }
            if let biometricsReference { field[BiometricCapture.fieldKey] = .reference(biometricsReference) }
            let fieldReference = update.add(.dictionary(field))
            addAnnotation(fieldReference, to: pages[pageIndex])
            addToForm(fieldReference, form: form)
        }
        if request.certification != nil, let root = update.catalogReference {
            edit(root) { catalog in
                var permissions = base.resolve(catalog[.perms] ?? .null).dictionaryValue ?? PDFDictionary()
                permissions[.docMDP] = .reference(signatureReference)
                catalog[.perms] = .dictionary(permissions)
            }
        }
        if let form {
            for name in request.readOnlyFields {
                guard let field = form.field(named: name), let reference = field.reference else {
                    throw SigningError(.invalidFieldName, "no field '\(name)' to make read-only")
                }
                edit(reference) { dictionary in
                    let flags = base.resolve(dictionary[.ff] ?? .null).intValue ?? Int(field.flags.rawValue)
                    dictionary[.ff] = .integer(flags | 1)
                }
            }
        }
        applyEdits()
    }

    /// Writes the edited dictionaries into the update.
    mutating func applyEdits() {
        for reference in editOrder { update.replace(reference, with: .dictionary(edits[reference]!)) }
    }

    /// The encrypted biometric data as a stream of the signed revision (so the signature covers it).
    /// - Throws: `.biometricsCertificateUnreadable` (-131).
    private mutating func biometricsObject() throws(SigningError) -> PDFReference? {
        guard let capture = request.biometrics else { return nil }
        guard let der = request.biometricsCertificate else {
            throw SigningError(.biometricsCertificateUnreadable, "biometric data needs a biometrics certificate")
        }
        let certificate: Certificate
        do {
            certificate = try Certificate(der: der)
        } catch {
            throw SigningError(
                .biometricsCertificateUnreadable, "the biometrics certificate cannot be read: \(error.message)")
        }
        let envelope = try Envelope.seal(capture.json, to: certificate)
        return update.add(
            .stream(PDFStream(dictionary: [.type: .name("AutographBiometricData")], data: envelope, compress: false)))
    }

    mutating func edit(_ reference: PDFReference, _ change: (inout PDFDictionary) -> Void) {
        var dictionary = edits[reference] ?? update.object(reference).dictionaryValue ?? PDFDictionary()
        change(&dictionary)
        if edits[reference] == nil { editOrder.append(reference) }
        edits[reference] = dictionary
    }

    /// Adds the widget to the page's `/Annots` (the array object itself when it is indirect).
    mutating func addAnnotation(_ widget: PDFReference, to page: Page) {
        guard let pageReference = page.reference else { return }
        let base = self.base
        if case .reference(let arrayReference)? = page.dictionary[.annots],
            let items = base.object(arrayReference).arrayValue
        {
            update.replace(arrayReference, with: .array(items + [.reference(widget)]))
        } else {
            edit(pageReference) { dictionary in
                let items = base.resolve(dictionary[.annots] ?? .null).arrayValue ?? []
                dictionary[.annots] = .array(items + [.reference(widget)])
            }
        }
    }

    /// Sets `/SigFlags` 3 on the form when it does not have it yet.
    private mutating func setSignatureFlags(form: AcroForm?) {
        guard let form, base.resolve(form.dictionary[.sigFlags] ?? .null).intValue != 3,
            let root = update.catalogReference
        else { return }
        if let formReference = form.reference {
            edit(formReference) { $0[.sigFlags] = .integer(3) }
        } else {
            var dictionary = form.dictionary
            dictionary[.sigFlags] = .integer(3)
            let changed = dictionary
            edit(root) { $0[.acroForm] = .dictionary(changed) }
        }
    }

    /// Adds the field to `/Fields` and sets `/SigFlags` (3: signatures exist, append only, §12.7.3).
    mutating func addToForm(_ field: PDFReference, form: AcroForm?, signatureFlags: Int = 3) {
        guard let root = update.catalogReference else { return }
        let base = self.base
        var dictionary = form?.dictionary ?? PDFDictionary()
        // An indirect /Fields array is replaced as an object of its own.
        if case .reference(let fieldsReference)? = dictionary[.fields],
            let items = base.object(fieldsReference).arrayValue
        {
            update.replace(fieldsReference, with: .array(items + [.reference(field)]))
        } else {
            let items = base.resolve(dictionary[.fields] ?? .null).arrayValue ?? []
            dictionary[.fields] = .array(items + [.reference(field)])
        }
        let flags = base.resolve(dictionary[.sigFlags] ?? .null).intValue ?? 0
        dictionary[.sigFlags] = .integer(flags | signatureFlags)
        if let form, let formReference = form.reference {
            let changed = dictionary
            edit(formReference) { $0 = $0.merging(changed) }
        } else {
            let changed = dictionary
            edit(root) { $0[.acroForm] = .dictionary(changed) }
        }
    }

    /// `Signature1`, `Signature2` …: the first name no field has.
    static func uniqueName(_ form: AcroForm?) -> String {
        var index = 1
        while form?.field(named: "Signature\(index)") != nil { index += 1 }
        return "Signature\(index)"
    }

    static func lockDictionary(_ lock: SignatureRequest.FieldLock) -> PDFDictionary {
        switch lock {
        case .all: return [.action: .name("All")]
        case .include(let names):
            return [.action: .name("Include"), .fields: .array(names.map { .string(PDFString(text: $0)) })]
        case .exclude(let names):
            return [.action: .name("Exclude"), .fields: .array(names.map { .string(PDFString(text: $0)) })]
        }
    }

    /// The appearance of a visible signature: the request's, or the signer's name, the date, and
    /// the reason and location as the description.
    private mutating func appearanceObject(
        width: Double, height: Double, rotation: Int, signerName: String?
    ) throws(SigningError) -> PDFObject {
        var appearance = request.appearance ?? SignatureAppearance()
        if request.appearance == nil {
            let details = [request.reason.map { "Reason: \($0)" }, request.location.map { "Location: \($0)" }]
                .compactMap { $0 }
            if !details.isEmpty { appearance.description = details.joined(separator: "\n") }
        }
        var update = self.update
        defer { self.update = update }
        return try SignatureAppearanceRenderer(
            appearance: appearance, signerName: signerName, date: request.signingTime
        )
        .make(width: width, height: height, rotation: rotation) { update.add($0) }
    }
}

extension PDFDictionary {
    func merging(_ other: PDFDictionary) -> PDFDictionary {
        var result = self
        for entry in other { result[entry.key] = entry.value }
        return result
    }
}

/// Autograph's version, written into `/Prop_Build`.
public enum AutographVersion {
    /// The version, as written in `/Prop_Build /App /REx`.
    public static let string = "0.1.0"
}
