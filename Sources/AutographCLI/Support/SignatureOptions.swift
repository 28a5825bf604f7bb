import PDFCore
import PDFForms
import PDFSigning

/// The field and signature options shared by `sign` and `prepare`.
enum SignatureOptions {
    static let specs: [CommandSpec.Option] = [
        .init(
            name: "field", valueName: "NAME",
            help: "the signature field: an existing empty one, or the name of a new one"),
        .init(name: "page", valueName: "N", help: "page (from 1) of a new visible field, with --rect"),
        .init(name: "rect", valueName: "x1,y1,x2,y2", help: "rectangle of a new visible field, in PDF points"),
        .init(name: "invisible", help: "create an invisible signature field"),
        .init(name: "reason", valueName: "R", help: "/Reason"),
        .init(name: "location", valueName: "L", help: "/Location"),
        .init(name: "name", valueName: "N", help: "/Name (by default the certificate's common name)"),
        .init(name: "contact", valueName: "C", help: "/ContactInfo"),
        .init(name: "certify", valueName: "1|2|3", help: "certify: 1 no changes, 2 form filling, 3 and annotations"),
        .init(name: "lock-fields", valueName: "all|A,B", help: "lock all fields or those named (FieldMDP)"),
        .init(name: "hash", valueName: "sha256|sha384|sha512", help: "the digest algorithm (sha256)"),
        .init(name: "size", valueName: "BYTES", help: "bytes reserved for the CMS (estimated by default)"),
        .init(
            name: "subfilter", valueName: "cades|pkcs7",
            help: "/SubFilter: ETSI.CAdES.detached (default) or adbe.pkcs7.detached"),
        .init(name: "password", valueName: "P", help: "password of an encrypted document"),
        .init(name: "deterministic-id", help: "derive the new file ID from the content"),
    ]

    /// `--hash`'s value: sha256, sha384 or sha512 (any case, `sha-256` too).
    static func digestAlgorithm(_ text: String) throws -> DigestAlgorithm {
        guard let algorithm = DigestAlgorithm(rawValue: text.lowercased().replacingOccurrences(of: "-", with: ""))
        else {
            throw UsageError("--hash wants sha256, sha384 or sha512")
        }
        return algorithm
    }

    /// The request from the arguments; `document` decides whether `--field` names an existing field,
    /// and which field is signed without `--field` (``emptyFieldToSign(_:document:)``).
    static func request(_ arguments: Arguments, document: PDFDocument) throws -> SignatureRequest {
        var request = SignatureRequest()
        request.fieldName = try arguments.value("field") ?? emptyFieldToSign(arguments, document: document)
        let existing = request.fieldName.flatMap { name in AcroFormLookup.fieldExists(name, in: document) } ?? false
        if let page = arguments.value("page") ?? (arguments.value("rect") != nil ? "1" : nil) {
            let pageNumber = try PageNumbers.page(page, option: "--page", count: document.pageCount)
            guard let rectText = arguments.value("rect") else { throw UsageError("--page needs --rect x1,y1,x2,y2") }
            let numbers = rectText.split(separator: ",").compactMap { Double(String($0).trimmingCharacters(in: " ")) }
            guard numbers.count == 4, numbers.allSatisfy({ $0.isFinite }) else {
                throw UsageError("--rect wants four numbers: x1,y1,x2,y2")
            }
            request.placement = .visible(
                page: pageNumber - 1, rect: PDFRectangle(x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
            )
        } else if arguments.has("invisible") {
            request.placement = .invisible
        } else {
            // No place given: an existing field, else (without --field) a new invisible one.
            request.placement = request.fieldName == nil ? .invisible : .existingField
        }
        if existing { request.placement = .existingField }
        request.reason = arguments.value("reason")
        request.location = arguments.value("location")
        request.name = arguments.value("name")
        request.contactInfo = arguments.value("contact")
        if let certify = arguments.value("certify") {
            guard let value = Int(certify), let level = SignatureRequest.Certification(rawValue: value) else {
                throw UsageError("--certify wants 1, 2 or 3")
            }
            request.certification = level
        }
        if let lock = arguments.value("lock-fields") {
            request.lockFields = lock == "all" ? .all : .include(lock.split(separator: ",").map(String.init))
        }
        if let hash = arguments.value("hash") { request.digestAlgorithm = try digestAlgorithm(hash) }
        if let size = arguments.value("size") {
            guard let bytes = Int(size), bytes > 0 else { throw UsageError("--size wants a number of bytes") }
            request.contentsSize = bytes
        }
        if let subFilter = arguments.value("subfilter") {
            switch subFilter {
            case "cades": request.subFilter = .cadesDetached
            case "pkcs7": request.subFilter = .pkcs7Detached
            default: throw UsageError("--subfilter wants cades or pkcs7")
            }
        }
        return request
    }
}

extension SignatureOptions {
    /// The field signed when no `--field` is given and no place either (`--page`, `--rect`,
    /// `--invisible`): the document's one empty signature field, as pyHanko does; nil when it has
    /// none (a new invisible field is made).
    /// - Throws: `UsageError` naming the fields when there are several: which one is the signer's
    ///   is not for the tool to guess.
    static func emptyFieldToSign(_ arguments: Arguments, document: PDFDocument) throws -> String? {
        guard arguments.value("page") == nil, arguments.value("rect") == nil, !arguments.has("invisible") else {
            return nil
        }
        let empty = (AcroForm(document: document)?.signatureFields ?? []).filter {
            $0.value == .signature(signed: false)
        }
        guard empty.count > 1 else { return empty.first?.name }
        let names = empty.prefix(10).map { "'" + Console.inline($0.name) + "'" }.joined(separator: ", ")
        throw UsageError(
            "the document has \(empty.count) empty signature fields (\(names)\(empty.count > 10 ? ", …" : "")): "
                + "name one with --field, or give --invisible or --page N --rect x1,y1,x2,y2 for a new one")
    }

    /// Whether the signature `request` makes shows nothing on a page: a new invisible field, or an
    /// existing field none of whose widgets is visible with an area.
    static func isInvisible(_ request: SignatureRequest, document: PDFDocument) -> Bool {
        switch request.placement {
        case .invisible: return true
        case .visible: return false
        case .existingField:
            guard let name = request.fieldName, let field = AcroForm(document: document)?.field(named: name) else {
                return false
            }
            return !field.widgets.contains {
                $0.isVisible && $0.pageIndex != nil && $0.rect.width != 0 && $0.rect.height != 0
            }
        }
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
