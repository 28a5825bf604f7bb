public import PDFCore

/// Signs a document in one call: prepares it, asks the signer for the CMS, and embeds it. When the
/// CMS is larger than estimated, it prepares again with the right size (adaptive sizing: nobody
/// has to guess a size).
public struct DocumentSigner: Sendable {
    /// The document to sign; its bytes are never changed (the signature is an incremental update).
    public let document: PDFDocument
    /// What to sign and how.
    public var request: SignatureRequest
    /// What turns the digest into a CMS.
    public let signer: any Signer
    /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
    public var writeOptions: WriteOptions = .default
    /// Refuse (signo -137) instead of making appearances when the form sets `/NeedAppearances`.
    public var refuseNeedAppearances = false
    /// The time-stamp authority that stamps the signature (PAdES B-T); nil for a B-B signature.
    /// `/Contents` then reserves room for the token as well.
    public var timeStampAuthority: (any TimeStampAuthority)?

    /// The room reserved for a signature time-stamp: a token with its authority's certificate chain.
    static let timeStampAllowance = 8192

    /// A signer of `document` as `request` asks, with the CMS made by `signer`.
    public init(document: PDFDocument, request: SignatureRequest, signer: any Signer) {
        self.document = document
        self.request = request
        self.signer = signer
    }

    /// The signed document: the prepared state and the bytes of the update with the CMS in place.
    public struct Signed: Sendable {
        /// The prepared document: the base and the update with room for the CMS.
        public let prepared: PreparedDocument
        /// The DER CMS SignedData, embedded into the reserved `/Contents` when written.
        public let cms: [UInt8]

        /// Writes base and update to `path`, atomically, the base streamed: memory does not grow
        /// with the document.
        public func write(to path: String) throws(SigningError) { try prepared.write(embedding: cms, to: path) }

        /// Appends base and update to `writer`, which holds the base's first `written` bytes already.
        package func write(to writer: AtomicFileWriter, after written: Int = 0) throws(SigningError) {
            try prepared.write(embedding: cms, to: writer, after: written)
        }

        /// The update alone, the CMS in place: the bytes the signed file has after ``PreparedDocument/base``.
        public func update() throws(SigningError) -> [UInt8] { try prepared.update(embedding: cms) }

        /// The signed file in memory: a copy of the whole document (``write(to:)`` streams it instead).
        public func bytes() throws(SigningError) -> [UInt8] { try prepared.bytes(embedding: cms) }
    }

    /// Prepares the update, has the signer make the CMS, and prepares again with the right size when the CMS did not
    /// fit the space reserved.
    /// - Throws: `SigningError`: the preparer's and the signer's errors, and `.signatureTooLarge`
    ///   (-136) when the CMS does not fit a size the request fixed, or still does not fit after a
    ///   second round.
    public func sign() async throws(SigningError) -> Signed {
        var size =
            request.contentsSize ?? signer.estimatedSize + (timeStampAuthority == nil ? 0 : Self.timeStampAllowance)
        for _ in 0..<2 {
            var preparer = SignaturePreparer(document: document, request: request, writeOptions: writeOptions)
            preparer.refuseNeedAppearances = refuseNeedAppearances
            let prepared = try preparer.prepare(contentsSize: size, signerName: signer.signerName)
            var cms = try await signer.cms(for: prepared.signature.digest, algorithm: request.digestAlgorithm)
            if let authority = timeStampAuthority {
                cms = try await SignatureTimestamp.adding(to: cms, from: authority, algorithm: request.digestAlgorithm)
            }
            if cms.count <= prepared.signature.capacity { return Signed(prepared: prepared, cms: cms) }
            // A fixed size the caller chose is respected: too small is their error (-136).
            if request.contentsSize != nil {
                throw SigningError(
                    .signatureTooLarge,
                    "the signature needs \(cms.count) bytes but \(prepared.signature.capacity) were reserved")
            }
            size = cms.count + 512
        }
        throw SigningError(.signatureTooLarge, "the signer returned a larger signature each time it was asked")
    }

    /// Signs and writes the signed document to `path`.
    public func sign(writingTo path: String) async throws(SigningError) {
        try await sign().write(to: path)
    }
}
