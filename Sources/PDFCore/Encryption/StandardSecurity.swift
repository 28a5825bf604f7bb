import AutographCrypto

/// The password algorithms of the standard security handler (ISO 32000-2 §7.6.4.3–§7.6.4.4):
/// revisions 2–4 (MD5 and RC4) and 5–6 (SHA-2 and AES-256).
package struct StandardSecurity {
    let revision: Int
    /// The file key length in bytes (revisions 2–4).
    let keyLength: Int
    let owner: [UInt8]
    let user: [UInt8]
    let ownerEncryption: [UInt8]
    let userEncryption: [UInt8]
    let permissions: Int32
    let fileID: [UInt8]
    let encryptMetadata: Bool

    /// The padding string of Algorithm 2, step a.
    static let padding: [UInt8] = [
        0x28, 0xBF, 0x4E, 0x5E, 0x4E, 0x75, 0x8A, 0x41, 0x64, 0x00, 0x4E, 0x56, 0xFF, 0xFA, 0x01, 0x08,
        0x2E, 0x2E, 0x00, 0xB6, 0xD0, 0x68, 0x3E, 0x80, 0x2F, 0x0C, 0xA9, 0xFE, 0x64, 0x53, 0x69, 0x7A,
    ]

    /// The file key when `password` is the user or the owner password; nil when it is neither.
    /// - Throws: `PDFError` `.unsupported` when a digest or AES cannot be computed (a wrong
    ///   password is never reported for a failure of the crypto library).
    package func authenticate(password: String) throws(PDFError) -> (key: [UInt8], owner: Bool)? {
        if revision >= 5 {
            let bytes = Array(Array(password.utf8).prefix(127))
            if let key = try authenticateOwnerV5(bytes) { return (key, true) }
            if let key = try authenticateUserV5(bytes) { return (key, false) }
            return nil
        }
        let bytes = Array((PDFDocEncoding.encode(password) ?? Array(password.utf8)).prefix(32))
        if let key = try authenticateUser(padded: bytes) { return (key, false) }
        if let key = try authenticateOwner(bytes) { return (key, true) }
        return nil
    }

    // MARK: Revisions 2–4

    private func pad(_ password: [UInt8]) -> [UInt8] {
        Array((password + StandardSecurity.padding).prefix(32))
    }

    /// Algorithm 2: the file key from a (user) password.
    func fileKey(password: [UInt8]) throws(PDFError) -> [UInt8] {
        var material = pad(password)
        material += owner.prefix(32)
        material += withUnsafeBytes(of: permissions.littleEndian) { Array($0) }
        material += fileID
        if revision >= 4 && !encryptMetadata { material += [0xFF, 0xFF, 0xFF, 0xFF] }
        var digest = try Digest.md5.hash(material)
        let length = revision == 2 ? 5 : min(keyLength, 16)
        if revision >= 3 {
            for _ in 0..<50 { digest = try Digest.md5.hash(Array(digest.prefix(length))) }
        }
        return Array(digest.prefix(length))
    }

    /// Algorithms 4 and 5: the expected `/U` for a file key.
    func userValue(key: [UInt8]) throws(PDFError) -> [UInt8] {
        if revision == 2 { return RC4.process(key: key, data: StandardSecurity.padding) }
        var value = RC4.process(key: key, data: try Digest.md5.hash(StandardSecurity.padding, fileID))
        for round in 1...19 {
            value = RC4.process(key: key.map { $0 ^ UInt8(round) }, data: value)
        }
        return value
    }

    /// Algorithm 6: authenticates a user password.
    private func authenticateUser(padded password: [UInt8]) throws(PDFError) -> [UInt8]? {
        let key = try fileKey(password: password)
        let expected = try userValue(key: key)
        let compared = revision == 2 ? 32 : 16
        guard user.count >= compared, expected.count >= compared,
            Array(user.prefix(compared)) == Array(expected.prefix(compared))
        else { return nil }
        return key
    }

    /// Algorithm 7: authenticates an owner password by recovering the user password from `/O`.
    private func authenticateOwner(_ password: [UInt8]) throws(PDFError) -> [UInt8]? {
        var digest = try Digest.md5.hash(pad(password))
        let length = revision == 2 ? 5 : min(keyLength, 16)
        if revision >= 3 {
            for _ in 0..<50 { digest = try Digest.md5.hash(digest) }
        }
        let key = Array(digest.prefix(length))
        var userPassword = Array(owner.prefix(32))
        if revision == 2 {
            userPassword = RC4.process(key: key, data: userPassword)
        } else {
            for round in stride(from: 19, through: 0, by: -1) {
                userPassword = RC4.process(key: key.map { $0 ^ UInt8(round) }, data: userPassword)
            }
        }
        return try authenticateUser(padded: userPassword)
    }

    // MARK: Revisions 5–6

    /// Algorithm 2.A/2.B: the hash of a password with a salt (and `/U` for the owner).
    func hashV5(_ password: [UInt8], salt: ArraySlice<UInt8>, userData: [UInt8]) throws(PDFError) -> [UInt8] {
        var k = try Digest.sha256.hash(password, Array(salt), userData)
        guard revision >= 6 else { return k }
        var round = 0
        while true {
            var block: [UInt8] = []
            let unit = password + k + userData
            block.reserveCapacity(unit.count * 64)
            for _ in 0..<64 { block += unit }
            let e = try aes(encrypt: true, key: Array(k[0..<16]), iv: Array(k[16..<32]), data: block)
            var sum = 0
            for byte in e.prefix(16) { sum += Int(byte) }
            switch sum % 3 {
            case 0: k = try Digest.sha256.hash(e)
            case 1: k = try Digest.sha384.hash(e)
            default: k = try Digest.sha512.hash(e)
            }
            round += 1
            if round >= 64, Int(e[e.count - 1]) <= round - 32 { break }
        }
        return Array(k.prefix(32))
    }

    private func authenticateUserV5(_ password: [UInt8]) throws(PDFError) -> [UInt8]? {
        guard user.count >= 48 else { return nil }
        let check = try hashV5(password, salt: user[32..<40], userData: [])
        guard check == Array(user[0..<32]) else { return nil }
        let intermediate = try hashV5(password, salt: user[40..<48], userData: [])
        return try fileKeyV5(intermediate: intermediate, encrypted: userEncryption)
    }

    private func authenticateOwnerV5(_ password: [UInt8]) throws(PDFError) -> [UInt8]? {
        guard owner.count >= 48, user.count >= 48 else { return nil }
        let userData = Array(user[0..<48])
        let check = try hashV5(password, salt: owner[32..<40], userData: userData)
        guard check == Array(owner[0..<32]) else { return nil }
        let intermediate = try hashV5(password, salt: owner[40..<48], userData: userData)
        return try fileKeyV5(intermediate: intermediate, encrypted: ownerEncryption)
    }

    /// The file key from `/UE` or `/OE` (Algorithm 2.A, steps (d) and (e)): AES-256 with a zero IV
    /// and no padding. Nil when `/UE` or `/OE` is not whole blocks (a damaged dictionary), as a
    /// password that does not open it.
    private func fileKeyV5(intermediate: [UInt8], encrypted: [UInt8]) throws(PDFError) -> [UInt8]? {
        let data = Array(encrypted.prefix(32))
        guard data.count % 16 == 0 else { return nil }
        return try aes(encrypt: false, key: intermediate, iv: [UInt8](repeating: 0, count: 16), data: data)
    }

    /// AES-CBC without padding for the password algorithms.
    /// - Throws: `PDFError` `.unsupported` when AES fails.
    private func aes(encrypt: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(PDFError) -> [UInt8] {
        do {
            return try encrypt
                ? AESCBC.encrypt(key: key, iv: iv, data: data, padding: false)
                : AESCBC.decrypt(key: key, iv: iv, data: data, padding: false)
        } catch {
            throw PDFError(.unsupported, "AES for the revision \(revision) password check failed", crypto: error)
        }
    }
}
