import COpenSSL

/// An X.509 certificate (RFC 5280 §4.1) owning an OpenSSL `X509`, never changed after init.
package final class X509Certificate: @unchecked Sendable {
    // @unchecked: the X509 is never changed after init, and OpenSSL's lazily computed caches
    // (extensions, hashes) are guarded by its own lock.
    let pointer: OpaquePointer

    /// The subject's public key; nil when OpenSSL cannot decode it.
    package let publicKey: AsymmetricKey?

    /// Wraps an `X509` whose reference this object takes over.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
        publicKey = X509_get0_pubkey(pointer).flatMap { key in
            EVP_PKEY_up_ref(key) == 1 ? AsymmetricKey(taking: key) : nil
        }
        ErrorQueue.clear()  // An undecodable key leaves its reasons behind.
    }

    /// Wraps an `X509` owned by someone else (a stack, a store context), taking a reference of its own.
    convenience init?(borrowing pointer: OpaquePointer) {
        guard X509_up_ref(pointer) == 1 else { return nil }
        self.init(taking: pointer)
    }

    deinit { X509_free(pointer) }

    /// Reads one DER-encoded certificate; `der` must be exactly the certificate.
    /// - Throws: `CryptoError` (`.certificateReading`) when OpenSSL cannot read it.
    package convenience init(der: [UInt8]) throws(CryptoError) {
        try CryptoOperation.begin(.certificateReading)
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .drained(.certificateReading, "d2i_X509") }
        self.init(taking: parsed)
    }

    /// Every certificate in PEM text (`-----BEGIN CERTIFICATE-----` blocks, RFC 7468 §5), in order,
    /// skipping blocks of other kinds; stops at the first certificate that cannot be read.
    package static func all(pem: [UInt8]) -> [X509Certificate] {
        defer { ErrorQueue.clear() }  // The end of the text leaves "no start line" behind.
        guard (try? CryptoOperation.begin(.certificateReading)) != nil,
            let bio = try? MemoryBIO(reading: pem, .certificateReading)
        else { return [] }
        var result: [X509Certificate] = []
        while let x509 = PEM_read_bio_X509(bio.pointer, nil, nil, nil) { result.append(X509Certificate(taking: x509)) }
        return result
    }

    /// The DER encoding; empty when OpenSSL cannot encode it.
    package var der: [UInt8] {
        defer { ErrorQueue.clear() }
        let length = i2d_X509(pointer, nil)
        guard length > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(pointer, &cursor)
        }
        return written == length ? output : []
    }

    /// The subject as a one-line RFC 4514 (RFC 2253) string, most specific first, UTF-8 kept.
    package var subjectLine: String { Self.oneLine(X509_get_subject_name(pointer)) }

    /// The issuer in the form of `subjectLine`.
    package var issuerLine: String { Self.oneLine(X509_get_issuer_name(pointer)) }

    /// Whether basicConstraints says this is a CA certificate (RFC 5280 §4.2.1.9).
    package var isCA: Bool {
        defer { ErrorQueue.clear() }
        return X509_get_extension_flags(pointer) & UInt32(EXFLAG_CA) != 0
    }

    /// The subject key identifier extension's value (RFC 5280 §4.2.1.2), if present.
    package var subjectKeyIdentifier: [UInt8]? {
        defer { ErrorQueue.clear() }
        guard let identifier = X509_get0_subject_key_id(pointer), let data = ASN1_STRING_get0_data(identifier) else {
            return nil
        }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(identifier))))
    }

    /// RFC 2253 one-line form without escaping UTF-8 (`-nameopt RFC2253,-esc_msb`).
    private static func oneLine(_ name: OpaquePointer?) -> String {
        defer { ErrorQueue.clear() }
        guard let name, let bio = try? MemoryBIO(.certificateReading) else { return "" }
        let stringFlags =
            UInt(ASN1_STRFLGS_ESC_2253) | UInt(ASN1_STRFLGS_ESC_CTRL) | UInt(ASN1_STRFLGS_UTF8_CONVERT)
            | UInt(ASN1_STRFLGS_DUMP_UNKNOWN) | UInt(ASN1_STRFLGS_DUMP_DER)
        let flags =
            stringFlags | UInt(XN_FLAG_SEP_COMMA_PLUS) | UInt(XN_FLAG_DN_REV) | UInt(XN_FLAG_FN_SN)
            | UInt(XN_FLAG_DUMP_UNKNOWN_FIELDS)
        _ = X509_NAME_print_ex(bio.pointer, name, 0, flags)
        return String(decoding: bio.readAll(), as: UTF8.self)
    }
}
