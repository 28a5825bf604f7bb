/// A file of the web viewer, embedded in the binary at build time (the EmbedWebAssets plugin writes
/// `embeddedWebAssets` from Web/).
public struct WebAsset: Sendable {
    /// The `Content-Type` the file is served with.
    public let contentType: String
    /// The file's bytes.
    public let bytes: [UInt8]

    /// A file served as `contentType`.
    public init(contentType: String, bytes: [UInt8]) {
        self.contentType = contentType
        self.bytes = bytes
    }
}
