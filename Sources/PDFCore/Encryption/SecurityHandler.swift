/// What a document's encryption is, for `autograph info` and callers (ISO 32000-2 §7.6).
public struct EncryptionInfo: Hashable, Sendable {
    /// The security handler (`Standard`).
    public var handler: String
    /// `/V`: the algorithm version.
    public var version: Int
    /// `/R`: the standard security handler's revision.
    public var revision: Int
    /// The file key length in bits.
    public var keyLength: Int
    /// The cipher of streams: `RC4`, `AES-128`, `AES-256` or `none`.
    public var streamMethod: String
    /// The cipher of strings.
    public var stringMethod: String
    /// `/EncryptMetadata`.
    public var encryptsMetadata: Bool
    /// `/P`: the permission bits.
    public var permissions: Int32
    /// True when the password given was the owner password.
    public var openedWithOwnerPassword: Bool
}

/// The standard security handler (ISO 32000-2 §7.6.4): authenticates a password, derives the file
/// key, and gives the cipher of each object's strings and streams.
package struct SecurityHandler: Sendable {
    package enum CryptMethod: Hashable, Sendable {
        case identity, rc4, aes128, aes256

        var label: String {
            switch self {
            case .identity: "none"
            case .rc4: "RC4"
            case .aes128: "AES-128"
            case .aes256: "AES-256"
            }
        }
    }

    package let info: EncryptionInfo
    package let fileKey: [UInt8]
    private let streamMethod: CryptMethod
    private let stringMethod: CryptMethod
    private let embeddedFileMethod: CryptMethod
    private let cryptFilters: [PDFName: CryptMethod]
    /// Set when the dictionary's `/Length` is not the key length that opened the document.
    package let lengthWarning: String?

    /// Opens the security handler of `dictionary` (the trailer's `/Encrypt`) with `password`.
    /// - Throws: `.passwordRequired` when no password was given and the empty one fails,
    ///   `.wrongPassword` when the given one fails, `.unsupported` for other handlers and when the
    ///   digests or AES the handler needs cannot be computed.
    package init(dictionary: PDFDictionary, fileID: [UInt8], password: String?) throws(PDFError) {
        let filter = dictionary.name(.filter)?.string ?? ""
        guard filter == "Standard" else {
            throw PDFError(.unsupported, "security handler /\(filter) is not supported (only /Standard)")
        }
        let version = dictionary.int(.v) ?? 0
        let revision = dictionary.int(.r) ?? 0
        guard (2...6).contains(revision), [1, 2, 4, 5].contains(version) else {
            throw PDFError(.unsupported, "standard security handler V \(version) R \(revision) is not supported")
        }
        let owner = dictionary.string(.o)?.bytes ?? []
        let user = dictionary.string(.u)?.bytes ?? []
        let permissions = Int32(truncatingIfNeeded: dictionary.int(.p) ?? -1)
        let encryptMetadata = dictionary.bool(.encryptMetadata) ?? true

        // Crypt filters (§7.6.6): V4 and V5 name them; V1 and V2 are RC4 throughout.
        var filters: [PDFName: CryptMethod] = [.identity: .identity]
        var keyLength = version == 1 ? 40 : (dictionary.int(.length) ?? 40)
        if version >= 4 {
            for entry in dictionary.dictionary(.cf) ?? PDFDictionary() {
                guard let parameters = entry.value.dictionaryValue else { continue }
                switch parameters.name(.cfm)?.string {
                case "V2": filters[entry.key] = .rc4
                case "AESV2": filters[entry.key] = .aes128
                case "AESV3": filters[entry.key] = .aes256
                case "None", nil: filters[entry.key] = .identity
                case let other?:
                    throw PDFError(.unsupported, "crypt filter method /\(other) is not supported")
                }
                if version == 4, let bits = parameters.int(.length) {
                    // Crypt filter lengths are in bytes by the spec, in bits in some writers.
                    keyLength = bits <= 32 ? bits * 8 : bits
                }
            }
        }
        func method(_ key: PDFName) -> CryptMethod {
            guard version >= 4 else { return .rc4 }
            guard let name = dictionary.name(key) else { return .identity }
            return filters[name] ?? .identity
        }
        streamMethod = method(.stmF)
        stringMethod = method(.strF)
        embeddedFileMethod = dictionary.name(.eff) == nil ? streamMethod : method(.eff)
        cryptFilters = filters

        // The key length: AES fixes it; for RC4 the stated one first, then the others a writer
        // may have meant (a wrong /Length is common): the password check tells which is right.
        var lengths: [Int]
        if version == 5 {
            lengths = [256]
        } else if version == 4 && filters.values.contains(.aes128) {
            lengths = [128]
        } else if revision == 2 {
            lengths = [40]
        } else {
            let stated = keyLength % 8 == 0 && (40...128).contains(keyLength) ? [keyLength] : []
            lengths = stated + [128, 40] + stride(from: 48, through: 120, by: 8)
            var seen = Set<Int>()
            lengths = lengths.filter { seen.insert($0).inserted }
        }

        var candidates: [String] = [password ?? ""]
        if let password, revision >= 5, let prepared = SASLprep.prepare(password), prepared != password {
            candidates.insert(prepared, at: 0)
        }
        var authenticated: (key: [UInt8], owner: Bool)? = nil
        search: for length in lengths {
            let standard = StandardSecurity(
                revision: revision, keyLength: length / 8, owner: owner, user: user,
                ownerEncryption: dictionary.string(.oe)?.bytes ?? [],
                userEncryption: dictionary.string(.ue)?.bytes ?? [],
                permissions: permissions, fileID: fileID, encryptMetadata: encryptMetadata)
            for candidate in candidates {
                if let result = try standard.authenticate(password: candidate) {
                    authenticated = result
                    keyLength = length
                    break search
                }
            }
            // Only revision 3 and 4 RC4 keys are worth another length.
            if revision < 3 || revision > 4 { break }
        }
        guard let authenticated else {
            if password == nil {
                throw PDFError(.passwordRequired, "the document is encrypted and needs a password")
            }
            throw PDFError(.wrongPassword, "the password opens the document neither as user nor as owner")
        }
        if let stated = dictionary.int(.length), stated != keyLength, version != 1 {
            let cipher = lengths.count == 1 ? (version == 5 ? "AES-256" : "AES-128") : "RC4"
            lengthWarning = "/Encrypt /Length \(stated) is wrong: opened as \(cipher) with a \(keyLength)-bit key"
        } else {
            lengthWarning = nil
        }
        fileKey = authenticated.key
        info = EncryptionInfo(
            handler: filter, version: version, revision: revision, keyLength: keyLength,
            streamMethod: streamMethod.label, stringMethod: stringMethod.label, encryptsMetadata: encryptMetadata,
            permissions: permissions, openedWithOwnerPassword: authenticated.owner)
    }

    /// The cipher of the strings of object `reference`, or nil when strings are not encrypted.
    /// - Throws: `PDFError` `.unsupported` when the object key cannot be derived (MD5 refused).
    package func stringCipher(for reference: PDFReference) throws(PDFError) -> ObjectCipher? {
        try cipher(stringMethod, reference)
    }

    /// The cipher of the stream `reference` with dictionary `dictionary`, or nil when it is not
    /// encrypted: cross-reference streams, metadata with `/EncryptMetadata false`, a `/Crypt` filter
    /// naming `/Identity`.
    /// - Throws: `PDFError` `.unsupported` when the object key cannot be derived (MD5 refused).
    package func streamCipher(for reference: PDFReference, dictionary: PDFDictionary) throws(PDFError) -> ObjectCipher?
    {
        let type = dictionary.name(.type)
        if type == .xRef { return nil }
        var names: [PDFName] = []
        switch dictionary[.filter] {
        case .name(let name)?: names = [name]
        case .array(let items)?: names = items.compactMap(\.nameValue)
        default: break
        }
        if let position = names.firstIndex(of: .crypt) {
            var parameters: PDFDictionary? = nil
            switch dictionary[.decodeParms] {
            case .dictionary(let single)?: parameters = single
            case .array(let items)? where position < items.count: parameters = items[position].dictionaryValue
            default: break
            }
            let name = parameters?.name(.name) ?? .identity
            return try cipher(cryptFilters[name] ?? .identity, reference)
        }
        if type == .metadata && !info.encryptsMetadata { return nil }
        if type == .embeddedFile { return try cipher(embeddedFileMethod, reference) }
        return try cipher(streamMethod, reference)
    }

    /// The object key (Algorithm 1, §7.6.3.3): the file key extended with the object number and
    /// generation (and `sAlT` for AES), hashed with MD5; AES-256 uses the file key as is.
    private func cipher(_ method: CryptMethod, _ reference: PDFReference) throws(PDFError) -> ObjectCipher? {
        switch method {
        case .identity: return nil
        case .aes256: return ObjectCipher(method: .aes, key: fileKey)
        case .rc4, .aes128:
            var material = fileKey
            material.append(UInt8(truncatingIfNeeded: reference.number))
            material.append(UInt8(truncatingIfNeeded: reference.number >> 8))
            material.append(UInt8(truncatingIfNeeded: reference.number >> 16))
            material.append(UInt8(truncatingIfNeeded: reference.generation))
            material.append(UInt8(truncatingIfNeeded: reference.generation >> 8))
            if method == .aes128 { material.append(contentsOf: [0x73, 0x41, 0x6C, 0x54]) }
            let key = Array(try Digest.md5.hash(material).prefix(min(fileKey.count + 5, 16)))
            return ObjectCipher(method: method == .rc4 ? .rc4 : .aes, key: key)
        }
    }
}
