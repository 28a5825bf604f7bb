import FoundationEssentials
import PDFAuthoring
import PDFCore
import PDFSigning

/// What the store keeps of a session besides the document's bytes: the workflow, the prepared
/// signature, the settings made during the session. Encoded as JSON, then encrypted by the store.
struct SessionSnapshot: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        /// `open` / `reopen`: signing allowed.
        case editable
        /// `show`: read only, erased when the session closes.
        case readOnly
    }

    var version = 1
    var kind: Kind
    var workflow = SigningWorkflow()
    /// The prepared signature while the session waits for a confirmation or a CMS.
    var prepared: PreparedSignature?
    /// The number of revisions before the refusal's watermark and the prepared revision: what
    /// remains when they are discarded.
    var revisionsBeforeSigning: Int?
    /// The SHA-256 of the certificate of the signer the prepared signature was made for (its name
    /// and appearance show it); nil when the host makes the CMS or no certificate was known. A
    /// restart with another signer discards the prepared signature instead of signing it.
    var preparedSigner: [UInt8]?
    var currentPageIndex = 0
    /// The password of an encrypted document (user or owner), needed to read it again after each
    /// revision and after a restart; kept only in the encrypted store.
    var documentPassword: String?
    var photoFields: PhotoFields?
    /// The signature field the toolbar's "sign" button started last (signo `startSignature`).
    var lastStartedField: String?

    struct PhotoFields: Codable, Sendable, Equatable {
        var names: [String]
        var maxWidth: Int
        var maxHeight: Int
    }

    init(kind: Kind) { self.kind = kind }

    func encoded() throws(SessionError) -> [UInt8] { try StoredJSON.encode(self, "the session state") }

    static func decoded(_ bytes: [UInt8]) throws(SessionError) -> SessionSnapshot {
        try StoredJSON.decode(bytes, "the session state")
    }
}

/// A saved handwritten signature as stored (encrypted) in the store.
struct SavedSignaturePayload: Codable, Sendable {
    var strokes: [InkStroke]
    /// When it was captured, in seconds since 1970.
    var created: Int

    func encoded() throws(SessionError) -> [UInt8] { try StoredJSON.encode(self, "a saved signature") }

    static func decoded(_ bytes: [UInt8]) throws(SessionError) -> SavedSignaturePayload {
        try StoredJSON.decode(bytes, "a saved signature")
    }
}

/// JSON for what the session keeps in the store (the store encrypts it).
enum StoredJSON {
    static func encode(_ value: some Encodable, _ what: String) throws(SessionError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(value))
        } catch {
            throw SessionError(.storeUnavailable, "\(what) cannot be encoded: \(error)")
        }
    }

    /// An authenticated record that does not decode was not written by us: `.tamperedRecord`.
    static func decode<Value: Decodable>(_ bytes: [UInt8], _ what: String) throws(SessionError) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(bytes))
        } catch {
            throw SessionError(.tamperedRecord, "\(what) in the store cannot be read: \(error)")
        }
    }
}
