/// A file of the web viewer, embedded in the binary at build time (the EmbedWebAssets plugin writes
/// `embeddedWebAssets` from Web/).
public struct WebAsset: Sendable {
    public let contentType: String
    public let bytes: [UInt8]

    public init(contentType: String, bytes: [UInt8]) {
        self.contentType = contentType
        self.bytes = bytes
    }
}
