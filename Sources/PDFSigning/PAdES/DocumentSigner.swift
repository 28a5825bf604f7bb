public import PDFCore

/// Signs a document in one call: prepares it, asks the signer for the CMS, and embeds it. When the
/// CMS is larger than estimated, it prepares again with the right size (adaptive sizing: nobody
/// has to guess a size).
public struct DocumentSigner: Sendable {
    public let document: PDFDocument
    public var request: SignatureRequest
    public let signer: any Signer
    public var writeOptions: WriteOptions = .default
    public var refuseNeedAppearances = false

    public init(document: PDFDocument, request: SignatureRequest, signer: any Signer) {
        self.document = document
        self.request = request
        self.signer = signer
    }

    /// The signed document: the prepared state and the bytes of the update with the CMS in place.
    public struct Signed: Sendable {
        public let prepared: PreparedDocument
        public let cms: [UInt8]

        /// Writes base and update to `path`, atomically.
        public func write(to path: String) throws(SigningError) { try prepared.write(embedding: cms, to: path) }

        /// The signed file in memory.
        public func bytes() throws(SigningError) -> [UInt8] { try prepared.bytes(embedding: cms) }
    }

    public func sign() async throws(SigningError) -> Signed {
        var size = request.contentsSize ?? signer.estimatedSize
        for _ in 0..<2 {
            var preparer = SignaturePreparer(document: document, request: request, writeOptions: writeOptions)
            preparer.refuseNeedAppearances = refuseNeedAppearances
            let prepared = try preparer.prepare(contentsSize: size, signerName: signer.signerName)
            let cms = try await signer.cms(for: prepared.signature.digest, algorithm: request.digestAlgorithm)
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
