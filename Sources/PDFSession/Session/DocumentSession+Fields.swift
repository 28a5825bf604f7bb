import PDFAnnotations
public import PDFAuthoring
public import PDFCore
import PDFForms
import PDFSigning

/// signo's calls on an open document: the "sign" button stepping through the signature fields,
/// new signature fields, photo fields, and saved handwritten signatures.
extension DocumentSession {
    /// The toolbar's "sign" button (signo `startSignature`): the next unsigned signature field after
    /// the one started last, in document order, wrapping around. A document without any signature
    /// field is signed as ``acceptDocument()`` signs it: the person places a new field (on the
    /// current page, proposed on empty space), so there is one way to sign such a document.
    /// - Throws: ``SessionError/Code-swift.enum/requiredFieldsEmpty`` (-129) while required fields
    ///   are empty; `invalidField` (-130) when every signature field is signed already.
    public func startSignature() async throws(SessionError) {
        let fields = signatureFields()
        if fields.isEmpty {
            try await acceptDocument()
            return
        }
        let unsigned = fields.filter { !$0.isSigned }.map(\.name)
        guard !unsigned.isEmpty else {
            throw SessionError(.invalidField, "the document has no unsigned signature field", signoCode: -130)
        }
        var next = unsigned[0]
        if let last = snapshot.lastStartedField, let index = unsigned.firstIndex(of: last) {
            next = unsigned[(index + 1) % unsigned.count]
        }
        try await startSignature(field: next)
    }

    /// Starts capturing a signature for `field` (signo `startSignature:`): asks the delegate's
    /// `willStartSigning` and `signingProcessStarted`, then waits for `captureSignature(_:)`.
    /// Required fields are checked before the delegate is asked, and again when its answers come.
    /// - Throws: `invalidField` (-130) for a field that is not an unsigned signature field;
    ///   ``SessionError/Code-swift.enum/requiredFieldsEmpty`` (-129), after
    ///   `missingRequiredFormField`, while required fields are empty.
    public func startSignature(field name: String) async throws(SessionError) {
        try requireEditing("signing")
        guard let field = form?.field(named: name), field.kind == .signature else {
            let failure = SessionError(.invalidField, "there is no signature field \"\(name)\"", signoCode: -130)
            emit(.signingProcessFailed(field: name, code: failure.signoCode, text: failure.message))
            throw failure
        }
        guard field.value == .signature(signed: false) else {
            let failure = SessionError(.invalidField, "\"\(name)\" is signed already", signoCode: -130)
            emit(.signingProcessFailed(field: name, code: failure.signoCode, text: failure.message))
            throw failure
        }
        // Before the host is asked anything: a document with required fields empty is not signed.
        try requireRequiredFieldsFilled()
        snapshot.lastStartedField = name
        guard await delegate?.willStartSigning(field: name) ?? true else {
            emit(.signingProcessCancelled(field: name))
            return
        }
        let readOnly = await delegate?.signingProcessStarted(field: name) ?? []
        // The fields may have changed while the host answered: the workflow checks them as they are.
        try await run(
            .startSigno(field: name, readOnly: readOnly, missingRequiredFields: missingRequiredFields().map(\.name)))
    }

    /// Adds an empty signature field (signo `createNewSignatureField`), page from 0, rectangle in
    /// PDF user space.
    @discardableResult
    public func createSignatureField(name: String, pageIndex: Int, rect: PDFRectangle) throws(SessionError)
        -> FieldInfo
    {
        try requireEditing("adding a signature field")
        // A new name is shown in viewers and printed by tools: no control or invisible formatting
        // character, and bounded.
        guard !name.isEmpty, name.utf8.count <= 1024 else {
            throw SessionError(.invalidArgument, "a signature field's name has 1 to 1024 bytes", signoCode: -130)
        }
        if let bad = name.unicodeScalars.first(where: {
            [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        }) {
            throw SessionError(
                .invalidArgument,
                "a signature field's name cannot hold U+\(String(bad.value, radix: 16, uppercase: true))",
                signoCode: -130)
        }
        let update: IncrementalUpdate
        do {
            update = try SignatureFieldMaker(document: document).makeUpdate(
                name: name, pageIndex: pageIndex, rect: rect)
        } catch {
            throw SessionError(error)
        }
        try appendRevision(update)
        guard let field = form?.field(named: name) else {
            throw SessionError(.writeFailed, "the new field \"\(name)\" is not in the saved document")
        }
        let info = FieldInfo(field)
        emit(.signatureFieldCreated(info))
        return info
    }

    // MARK: - Photo fields

    /// Declares the fields that take photos (signo `setPhotoFieldsNames:maxWidth:maxHeight:`).
    public func setPhotoFieldNames(_ names: [String], maxWidth: Int, maxHeight: Int) throws(SessionError) {
        guard maxWidth > 0, maxHeight > 0 else {
            throw SessionError(.invalidArgument, "the largest photo must be at least 1×1 pixels")
        }
        for name in names {
            guard let field = form?.field(named: name), field.kind == .text || field.kind == .pushButton else {
                throw SessionError(
                    .invalidField, "\"\(name)\" is not a text field or a button, so it cannot take a photo")
            }
        }
        snapshot.photoFields = .init(names: names, maxWidth: maxWidth, maxHeight: maxHeight)
        if !isReadOnly { try persist() }
        emit(.photoFieldsDeclared(names))
    }

    /// The fields that take photos.
    public var photoFieldNames: [String] { snapshot.photoFields?.names ?? [] }

    /// Places a photo (JPEG or PNG) in a photo field, scaled down to the configured size. The photo
    /// is decoded off Swift's cooperative pool (an image of tens of megapixels takes a second), and
    /// one declaring more than `ImageXObject.defaultMaximumPixels` is refused from its header.
    public func placePhoto(_ image: [UInt8], inField name: String) async throws(SessionError) {
        do throws(SessionError) {
            try requireEditing("placing a photo")
            guard let settings = snapshot.photoFields, settings.names.contains(name) else {
                throw SessionError(.invalidField, "\"\(name)\" is not a photo field")
            }
            let decoder = PhotoFieldFiller(
                document: document, maxWidth: settings.maxWidth, maxHeight: settings.maxHeight)
            let photo: ImageXObject
            do {
                photo = try await BlockingWork.run { () throws(AnnotationError) in try decoder.decode(image) }
            } catch {
                throw SessionError(error)
            }
            // The session may have moved on while the photo was decoded: checked again, and the
            // update made on the document as it is now.
            try requireEditing("placing a photo")
            let filler = PhotoFieldFiller(
                document: document, maxWidth: settings.maxWidth, maxHeight: settings.maxHeight)
            let update: IncrementalUpdate
            do {
                update = try filler.makeUpdate(placing: photo, in: name)
            } catch {
                throw SessionError(error)
            }
            try appendRevision(update)
            emit(.photoPlaced(field: name))
        } catch {
            emit(.photoCaptureFailed(field: name, code: error.signoCode, text: error.message))
            throw error
        }
    }

    /// The app could not take the photo (no camera permission, capture failed): the event is emitted.
    public func photoCaptureFailed(field: String, reason: String) {
        emit(.photoCaptureFailed(field: field, code: -150, text: reason))
    }

    // MARK: - Saved handwritten signatures (WYSIWYS signature settings)

    /// The person's saved signatures, oldest first.
    public func savedSignatures() throws(SessionError) -> [SavedSignature] { try store.handwrittenSignatures() }

    /// Saves handwriting among the person's signatures, dated now, and returns it with its id.
    /// - Throws: `.invalidArgument` for points outside `[InkStroke].captureArea` or too many of them.
    @discardableResult
    public func addSavedSignature(_ strokes: [InkStroke]) throws(SessionError) -> SavedSignature {
        try store.addHandwrittenSignature(strokes, created: clock())
    }

    /// Deletes the saved signature `id`; no error when there is none.
    public func deleteSavedSignature(id: Int) throws(SessionError) { try store.deleteSignature(id: id) }
}
