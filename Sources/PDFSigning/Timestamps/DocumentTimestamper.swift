public import PDFCore

/// Adds a document time-stamp (ETSI EN 319 142-1 §5.4, ISO 32000-2 §12.8.5): an invisible
/// `/DocTimeStamp` field in its own incremental update, whose `/Contents` is a time-stamp token
/// over the byte ranges — proof that the document, every signature in it included, existed at that
/// time (the last step of PAdES B-LTA, and of each archive renewal).
///
/// ```swift
/// let authority = try HTTPTimeStampAuthority(url: "http://tsa.example/")
/// try await DocumentTimestamper(document: document, authority: authority).timestamp().write(to: path)
/// ```
public struct DocumentTimestamper: Sendable {
    /// The document to stamp; its bytes stay a prefix of the result.
    public let document: PDFDocument
    /// Where the token comes from.
    public let authority: any TimeStampAuthority
    /// The hash of the byte ranges the authority stamps.
    public var digestAlgorithm: DigestAlgorithm = .sha256
    /// The new field's name (a free `SignatureN` when nil).
    public var fieldName: String?
    /// The bytes reserved for the token (8 KiB when nil, more if the token needs it).
    public var contentsSize: Int?
    /// Whether the update's `/ID` is derived from its content, and where its random bytes come from.
    public var writeOptions: WriteOptions = .default

    /// A time-stamper of `document` by `authority`.
    public init(document: PDFDocument, authority: any TimeStampAuthority) {
        self.document = document
        self.authority = authority
    }

    /// Prepares the update, asks the authority for a token over its byte ranges and embeds it.
    /// - Throws: `.timestampFailed` (−146) when the authority gives no valid token; what preparing
    ///   throws (a certified document that allows no change, a field name taken …).
    public func timestamp() async throws(SigningError) -> DocumentSigner.Signed {
        var request = SignatureRequest(fieldName: fieldName, placement: .invisible)
        request.subFilter = .rfc3161
        request.digestAlgorithm = digestAlgorithm
        request.contentsSize = contentsSize
        var signer = DocumentSigner(document: document, request: request, signer: TokenSigner(authority: authority))
        signer.writeOptions = writeOptions
        return try await signer.sign()
    }
}

/// The "signer" of a document time-stamp: the authority's token over the byte ranges' digest.
private struct TokenSigner: Signer {
    let authority: any TimeStampAuthority
    var certificates: [Certificate] { [] }
    var estimatedSize: Int { 8192 }

    func cms(for digest: [UInt8], algorithm: DigestAlgorithm) async throws(SigningError) -> [UInt8] {
        let request = try TimeStampRequest(imprint: digest, algorithm: algorithm)
        return try await authority.timeStamp(request).encoded
    }
}
