import AutographCrypto

/// The cipher of one object's strings or stream: RC4 or AES-CBC with the object's key (ISO 32000-2 §7.6.3).
package struct ObjectCipher: Hashable, Sendable {
    package enum Method: Hashable, Sendable {
        case rc4
        case aes
    }

    package let method: Method
    package let key: [UInt8]

    package init(method: Method, key: [UInt8]) {
        self.method = method
        self.key = key
    }

    /// Decrypts liberally: AES data whose length is not a multiple of 16 is cut to one, and bad
    /// padding is kept rather than failing (as qpdf and pdf.js do). Data AES cannot decrypt reads
    /// as empty, like data too short to hold an IV: reading repairs rather than throws (invariant 2).
    package func decrypt(_ data: [UInt8]) -> [UInt8] {
        switch method {
        case .rc4:
            return RC4.process(key: key, data: data)
        case .aes:
            guard data.count >= 32 else { return [] }
            let iv = Array(data[0..<16])
            let blocks = (data.count - 16) / 16 * 16
            let body = Array(data[16..<(16 + blocks)])
            guard var plain = try? AESCBC.decrypt(key: key, iv: iv, data: body, padding: false) else { return [] }
            if let last = plain.last, last >= 1, last <= 16, Int(last) <= plain.count,
                plain.suffix(Int(last)).allSatisfy({ $0 == last })
            {
                plain.removeLast(Int(last))
            }
            return plain
        }
    }

    /// Encrypts `data`; AES output is the 16-byte `iv` followed by the padded ciphertext.
    /// - Throws: `PDFError` `.writeFailed` when AES fails (the object would otherwise be written
    ///   without its data).
    package func encrypt(_ data: [UInt8], iv: [UInt8]) throws(PDFError) -> [UInt8] {
        switch method {
        case .rc4:
            return RC4.process(key: key, data: data)
        case .aes:
            do {
                return iv + (try AESCBC.encrypt(key: key, iv: iv, data: data, padding: true))
            } catch {
                throw PDFError(.writeFailed, "AES encryption of an object failed", crypto: error)
            }
        }
    }
}
