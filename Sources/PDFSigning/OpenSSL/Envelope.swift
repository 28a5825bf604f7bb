import COpenSSL

/// Encrypts data to a certificate as CMS AuthEnvelopedData (RFC 5083, AES-256-GCM) or
/// EnvelopedData (RFC 5652, AES-256-CBC): RSA keys through RSAES-OAEP, EC keys through ECDH key
/// agreement (RFC 5753). OpenSSL's CMS API builds it (the signingTime problem of its SignedData
/// does not concern enveloping). Used for biometric data only the holder of the key may read.
package enum Envelope {
    /// The DER of the CMS ContentInfo enveloping `data` for `recipient`.
    /// - Throws: `.biometricsCertificateUnreadable` (-131) when the certificate's key cannot receive.
    package static func seal(_ data: [UInt8], to recipient: Certificate) throws(SigningError) -> [UInt8] {
        OpenSSLErrors.clear()
        for cipher in [EVP_aes_256_gcm(), EVP_aes_256_cbc()] {
            if let sealed = seal(data, to: recipient, cipher: cipher) { return sealed }
        }
        throw OpenSSLErrors.error(
            .biometricsCertificateUnreadable, "cannot encrypt to the certificate \(recipient.subject)")
    }

    private static func seal(_ data: [UInt8], to recipient: Certificate, cipher: OpaquePointer?) -> [UInt8]? {
        let flags = UInt32(CMS_BINARY | CMS_PARTIAL)
        guard let cms = CMS_encrypt(nil, nil, cipher, flags) else {
            OpenSSLErrors.clear()
            return nil
        }
        defer { CMS_ContentInfo_free(cms) }
        guard let info = CMS_add1_recipient_cert(cms, recipient.x509, UInt32(CMS_KEY_PARAM)) else {
            OpenSSLErrors.clear()
            return nil
        }
        if CMS_RecipientInfo_type(info) == CMS_RECIPINFO_TRANS, let context = CMS_RecipientInfo_get0_pkey_ctx(info) {
            // RSAES-OAEP rather than PKCS#1 v1.5 key transport.
            guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) > 0 else {
                OpenSSLErrors.clear()
                return nil
            }
        }
        let finished = data.withUnsafeBytes { buffer -> Bool in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return false }
            defer { BIO_free(bio) }
            return CMS_final(cms, bio, nil, flags) == 1
        }
        guard finished else {
            OpenSSLErrors.clear()
            return nil
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_CMS_ContentInfo(cms, &output)
        guard length > 0, let output else {
            OpenSSLErrors.clear()
            return nil
        }
        defer { CRYPTO_free(output, #file, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// Decrypts an envelope with `key` (and its certificate, to find the recipient).
    /// - Throws: `.signingFailed` when the key is not a recipient or the data is damaged.
    package static func open(_ envelope: [UInt8], key: PrivateKey, certificate: Certificate?) throws(SigningError)
        -> [UInt8]
    {
        OpenSSLErrors.clear()
        let parsed = envelope.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_CMS_ContentInfo(nil, &cursor, buffer.count)
        }
        guard let cms = parsed else {
            throw OpenSSLErrors.error(.malformedData, "the envelope is not a CMS ContentInfo")
        }
        defer { CMS_ContentInfo_free(cms) }
        guard let output = BIO_new(BIO_s_mem()) else { throw OpenSSLErrors.error(.signingFailed, "out of memory") }
        defer { BIO_free(output) }
        guard CMS_decrypt(cms, key.key, certificate?.x509, nil, output, UInt32(CMS_BINARY)) == 1 else {
            throw OpenSSLErrors.error(
                .signingFailed, "the envelope does not open with this key (wrong key, or damaged data)")
        }
        var pointer: UnsafeMutablePointer<CChar>? = nil
        let length = BIO_ctrl(output, BIO_CTRL_INFO, 0, &pointer)
        guard length >= 0, let pointer else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    }
}
