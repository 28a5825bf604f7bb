import AutographCrypto

/// Sealing and opening records (the envelope is described on ``RecordCipher``).
extension RecordCipher {
    /// The additional data of a record of format 2 at `key`: the row key it must stay in.
    static func additionalData(_ key: RecordKey) -> [UInt8] {
        Array("autograph store v2".utf8) + [0] + legacyAdditionalData(key)
    }

    /// The additional data of a record of format 1 at `key` (whose document and kind are the id and
    /// the kind's name).
    static func legacyAdditionalData(_ key: RecordKey) -> [UInt8] {
        Array(key.owner.utf8) + [0] + Array(key.document.utf8) + [0] + Array(key.kind.utf8) + [0]
            + Array(String(key.index).utf8)
    }

    /// Encrypts `parts` (concatenated, so a header and a large payload are never joined first) as
    /// the record at `address`, in format 2: its document id first, then the parts. The result is
    /// the only new copy: the parts are copied in place, then encrypted in place.
    func seal(_ parts: [UInt8]..., for address: RecordAddress) throws(SessionError) -> [UInt8] {
        let id = Array(address.documentID.utf8)
        let length = UInt32(truncatingIfNeeded: id.count)
        let header = (0..<Self.idHeaderSize).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
        return try seal(
            [header, id] + parts, version: Self.formatVersion, aad: Self.additionalData(address.key), naming: address)
    }

    /// Encrypts `value` in format 1 for `key` (the store-wide key check, which keeps that format).
    func sealLegacy(_ value: [UInt8], for key: RecordKey) throws(SessionError) -> [UInt8] {
        try seal([value], version: Self.legacyFormatVersion, aad: Self.legacyAdditionalData(key), naming: key)
    }

    private func seal(
        _ parts: [[UInt8]], version: UInt8, aad: [UInt8], naming record: some CustomStringConvertible
    ) throws(SessionError) -> [UInt8] {
        let nonce: [UInt8]
        do {
            nonce = try SecureRandom.bytes(AESGCM.nonceSize)
        } catch {
            throw SessionError(.storeUnavailable, "store: no random bytes for a nonce", crypto: error)
        }
        let count = parts.reduce(0) { $0 + $1.count }
        var failure: CryptoError?
        let sealed = [UInt8](unsafeUninitializedCapacity: Self.overhead + count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw[0] = version
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
                    key: self.recordKey, nonce: nonce, aad: aad, plaintext: UnsafeRawBufferPointer(text),
                    ciphertext: text, tag: tag)
            } catch {
                failure = error
            }
            initialized = buffer.count
        }
        if let failure {
            throw SessionError(.storeUnavailable, "store: encryption of \(record) failed", crypto: failure)
        }
        return sealed
    }

    /// Why a value did not open.
    enum OpenFailure: Error {
        /// Too short, unknown format version, a document id that does not fit or is not UTF-8.
        case malformed
        /// The tag did not match: wrong key, altered bytes or a record moved from another key.
        case unauthenticated
        /// The record opened, but the document id sealed in it is not its row's: another document's
        /// record put there by someone holding the key.
        case otherDocument
        /// AES-GCM (or the row key's HMAC) could not run (`.storeUnavailable`): nothing is known
        /// about the record.
        case unavailable(SessionError)

        /// The error of a record that did not open: the crypto failure as it is, else
        /// `.tamperedRecord` naming the record.
        func error(for record: some CustomStringConvertible) -> SessionError {
            switch self {
            case .unavailable(let error):
                return error
            case .otherDocument:
                return SessionError(.tamperedRecord, "\(record) holds the record of another document: moved or swapped")
            case .malformed, .unauthenticated:
                return SessionError(.tamperedRecord, "\(record) failed authentication: altered, truncated or moved")
            }
        }
    }

    /// Decrypts a small value of format 2 (a copy is made; see `open(_:for:)` with `inout` for large ones).
    func open(_ sealed: [UInt8], for address: RecordAddress) throws(OpenFailure) -> [UInt8] {
        var value = sealed
        try open(&value, for: address)
        return value
    }

    /// Decrypts the record of format 2 at `address` in place: the sealed bytes become the value,
    /// without a second buffer. The document id sealed in it must be the address's.
    /// On failure `value` holds unauthenticated bytes and must be discarded.
    func open(_ value: inout [UInt8], for address: RecordAddress) throws(OpenFailure) {
        guard try openRecord(&value, at: address.key) == address.documentID else { throw .otherDocument }
    }

    /// Decrypts a record of format 2 read at `key` in place and returns the document id sealed in
    /// it, checked against the key's document tag (for rows whose id is not known yet: listings,
    /// rekeying).
    func open(_ value: inout [UInt8], at key: RecordKey) throws(OpenFailure) -> String {
        let id = try openRecord(&value, at: key)
        let tag: String
        do {
            tag = try documentTag(id)
        } catch {
            throw .unavailable(error)
        }
        guard tag == key.document else { throw .otherDocument }
        return id
    }

    /// Decrypts a record of format 1 read at `key` (its document and kind in clear) in place.
    func openLegacy(_ value: inout [UInt8], at key: RecordKey) throws(OpenFailure) {
        let range = try decrypt(
            &value, version: Self.legacyFormatVersion, aad: Self.legacyAdditionalData(key), naming: key)
        value.removeLast(value.count - range.upperBound)
        value.removeFirst(range.lowerBound)
    }

    /// Format 2: decrypts, splits off the sealed document id and returns it; `value` becomes the value.
    private func openRecord(_ value: inout [UInt8], at key: RecordKey) throws(OpenFailure) -> String {
        let range = try decrypt(&value, version: Self.formatVersion, aad: Self.additionalData(key), naming: key)
        guard range.count >= Self.idHeaderSize else { throw .malformed }
        var length = 0
        for index in 0..<Self.idHeaderSize { length |= Int(value[range.lowerBound + index]) << (8 * index) }
        let idStart = range.lowerBound + Self.idHeaderSize
        guard length <= range.upperBound - idStart,
            let id = String(validating: value[idStart..<idStart + length], as: UTF8.self)
        else { throw .malformed }
        value.removeLast(value.count - range.upperBound)
        value.removeFirst(idStart + length)
        return id
    }

    /// Decrypts `value` of format `version` in place and returns where its plaintext is.
    private func decrypt(
        _ value: inout [UInt8], version: UInt8, aad: [UInt8], naming key: RecordKey
    ) throws(OpenFailure) -> Range<Int> {
        guard value.count >= Self.overhead, value[0] == version else { throw .malformed }
        let nonce = Array(value[1..<Self.headerSize])
        let tag = Array(value[(value.count - AESGCM.tagSize)...])
        let end = value.count - AESGCM.tagSize
        let opened = value.withUnsafeMutableBytes { raw in
            Result { () throws(CryptoError) in
                try AESGCM.open(
                    key: self.recordKey, nonce: nonce, aad: aad,
                    buffer: UnsafeMutableRawBufferPointer(rebasing: raw[Self.headerSize..<end]), tag: tag)
            }
        }
        switch opened {
        case .success(true): return Self.headerSize..<end
        case .success(false): throw .unauthenticated
        case .failure(let error):
            throw .unavailable(SessionError(.storeUnavailable, "store: decryption of \(key) failed", crypto: error))
        }
    }

    /// Whether `sealed` opens as the record at `address` to exactly `expected` (a key check): a
    /// wrong key, damaged or malformed bytes give false.
    /// - Throws: `.storeUnavailable` when AES-GCM cannot run — not a wrong key.
    func check(_ sealed: [UInt8], for address: RecordAddress, is expected: [UInt8]) throws(SessionError) -> Bool {
        do {
            return try open(sealed, for: address) == expected
        } catch .unavailable(let error) {
            throw error
        } catch {
            return false
        }
    }

    /// ``check(_:for:is:)`` for a value of format 1 at `key` (the store-wide check, a user's check
    /// not moved yet).
    func checkLegacy(_ sealed: [UInt8], at key: RecordKey, is expected: [UInt8]) throws(SessionError) -> Bool {
        var value = sealed
        do {
            try openLegacy(&value, at: key)
            return value == expected
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
}
