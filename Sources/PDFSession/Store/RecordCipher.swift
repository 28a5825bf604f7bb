import AutographCrypto

/// The keys of one user in one store and the record envelope they seal and open.
///
/// Keys come from HKDF-SHA-256 (RFC 5869) with the 64-byte storage key as input keying material
/// and the store's random 32-byte salt:
/// - record key (32 bytes): info "autograph store v1 records" ‖ 0 ‖ user name (UTF-8);
/// - owner tag (16 bytes, stored as hex): info "autograph store v1 owner" ‖ 0 ‖ user name, so the
///   database never shows who the user is;
/// - store check key (32 bytes): info "autograph store v1 store check", shared by the store's users.
///
/// A record is `1 ‖ nonce (12) ‖ AES-256-GCM ciphertext ‖ tag (16)`; its additional data is
/// `owner ‖ 0 ‖ documentID ‖ 0 ‖ kind ‖ 0 ‖ index (decimal)`, so a record moved to another
/// document, kind or index no longer opens.
struct RecordCipher: Sendable {
    static let formatVersion: UInt8 = 1
    static let headerSize = 1 + AESGCM.nonceSize
    static let overhead = headerSize + AESGCM.tagSize

    let owner: String
    private let key: [UInt8]

    /// Derives the user's keys; the storage key itself is not kept.
    init(storageKey: [UInt8], salt: [UInt8], username: String) throws(SessionError) {
        let name = Array(username.utf8)
        do {
            key = try HKDF.sha256(
                key: storageKey, salt: salt, info: Array("autograph store v1 records".utf8) + [0] + name, length: 32)
            let tag = try HKDF.sha256(
                key: storageKey, salt: salt, info: Array("autograph store v1 owner".utf8) + [0] + name, length: 16)
            owner = Self.hex(tag)
        } catch {
            throw SessionError(.storeUnavailable, "store: key derivation failed", crypto: error)
        }
    }

    /// The cipher of the store-wide key check (owner "").
    private init(owner: String, key: [UInt8]) {
        self.owner = owner
        self.key = key
    }

    static func storeCheck(storageKey: [UInt8], salt: [UInt8]) throws(SessionError) -> RecordCipher {
        do {
            let key = try HKDF.sha256(
                key: storageKey, salt: salt, info: Array("autograph store v1 store check".utf8), length: 32)
            return RecordCipher(owner: "", key: key)
        } catch {
            throw SessionError(.storeUnavailable, "store: key derivation failed", crypto: error)
        }
    }

    /// The key of this user's record.
    func key(_ documentID: String, _ kind: RecordKind, _ index: Int = 0) -> RecordKey {
        RecordKey(owner: owner, documentID: documentID, kind: kind, index: index)
    }

    /// The additional authenticated data binding a value to its key.
    static func additionalData(_ key: RecordKey) -> [UInt8] {
        Array(key.owner.utf8) + [0] + Array(key.documentID.utf8) + [0] + Array(key.kind.rawValue.utf8) + [0]
            + Array(String(key.index).utf8)
    }

    /// Encrypts `parts` (concatenated, so a header and a large payload are never joined first)
    /// for `key`. The result is the only new copy: the parts are copied in place, then encrypted
    /// in place.
    func seal(_ parts: [UInt8]..., for key: RecordKey) throws(SessionError) -> [UInt8] {
        let nonce: [UInt8]
        do {
            nonce = try SecureRandom.bytes(AESGCM.nonceSize)
        } catch {
            throw SessionError(.storeUnavailable, "store: no random bytes for a nonce", crypto: error)
        }
        let count = parts.reduce(0) { $0 + $1.count }
        let aad = Self.additionalData(key)
        var failure: CryptoError?
        let sealed = [UInt8](unsafeUninitializedCapacity: Self.overhead + count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw[0] = Self.formatVersion
            nonce.withUnsafeBytes {
                raw.baseAddress!.advanced(by: 1).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
            }
            var offset = Self.headerSize
            for part in parts {
                part.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress {
                        raw.baseAddress!.advanced(by: offset).copyMemory(from: base, byteCount: bytes.count)
                    }
                }
                offset += part.count
            }
            let text = UnsafeMutableRawBufferPointer(rebasing: raw[Self.headerSize..<Self.headerSize + count])
            let tag = UnsafeMutableRawBufferPointer(rebasing: raw[(Self.headerSize + count)...])
            tag.initializeMemory(as: UInt8.self, repeating: 0)
            do throws(CryptoError) {
                try AESGCM.seal(
                    key: self.key, nonce: nonce, aad: aad, plaintext: UnsafeRawBufferPointer(text), ciphertext: text,
                    tag: tag)
            } catch {
                failure = error
            }
            initialized = buffer.count
        }
        if let failure { throw SessionError(.storeUnavailable, "store: encryption of \(key) failed", crypto: failure) }
        return sealed
    }

    /// Why a value did not open.
    enum OpenFailure: Error {
        /// Too short, unknown format version.
        case malformed
        /// The tag did not match: wrong key, altered bytes or a record moved from another key.
        case unauthenticated
        /// AES-GCM could not run (`.storeUnavailable`): nothing is known about the record.
        case unavailable(SessionError)

        /// The error of a record `key` that did not open: the crypto failure as it is, else
        /// `.tamperedRecord` naming the record.
        func error(for key: RecordKey) -> SessionError {
            if case .unavailable(let error) = self { return error }
            return SessionError(.tamperedRecord, "\(key) failed authentication: altered, truncated or moved")
        }
    }

    /// Decrypts a small value (a copy is made; see `open(_:for:)` with `inout` for large ones).
    func open(_ sealed: [UInt8], for key: RecordKey) throws(OpenFailure) -> [UInt8] {
        var value = sealed
        try open(&value, for: key)
        return value
    }

    /// Decrypts `value` in place: the sealed bytes become the plaintext, without a second buffer.
    /// On failure `value` holds unauthenticated bytes and must be discarded.
    func open(_ value: inout [UInt8], for key: RecordKey) throws(OpenFailure) {
        guard value.count >= Self.overhead, value[0] == Self.formatVersion else { throw .malformed }
        let nonce = Array(value[1..<Self.headerSize])
        let tag = Array(value[(value.count - AESGCM.tagSize)...])
        let end = value.count - AESGCM.tagSize
        let opened = value.withUnsafeMutableBytes { raw in
            Result { () throws(CryptoError) in
                try AESGCM.open(
                    key: self.key, nonce: nonce, aad: Self.additionalData(key),
                    buffer: UnsafeMutableRawBufferPointer(rebasing: raw[Self.headerSize..<end]), tag: tag)
            }
        }
        switch opened {
        case .success(true): break
        case .success(false): throw .unauthenticated
        case .failure(let error):
            throw .unavailable(SessionError(.storeUnavailable, "store: decryption of \(key) failed", crypto: error))
        }
        value.removeLast(AESGCM.tagSize)
        value.removeFirst(Self.headerSize)
    }

    /// Whether `sealed` opens for `key` to exactly `expected` (a key check): a wrong key, damaged or
    /// malformed bytes give false.
    /// - Throws: `.storeUnavailable` when AES-GCM cannot run — not a wrong key.
    func check(_ sealed: [UInt8], for key: RecordKey, is expected: [UInt8]) throws(SessionError) -> Bool {
        do {
            return try open(sealed, for: key) == expected
        } catch .unavailable(let error) {
            throw error
        } catch {
            return false
        }
    }

    /// The tag of a sealed value (its last 16 bytes), which identifies it among values sealed with one key.
    static func tag(of sealed: [UInt8]) -> [UInt8] {
        sealed.count >= overhead ? Array(sealed.suffix(AESGCM.tagSize)) : []
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
