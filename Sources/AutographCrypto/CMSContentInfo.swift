import COpenSSL

/// A CMS ContentInfo (RFC 5652 §3) owning an OpenSSL `CMS_ContentInfo`, built and read by OpenSSL's
/// CMS code: envelopes (AuthEnvelopedData, RFC 5083; EnvelopedData, RFC 5652 §6) and, as a test
/// oracle, SignedData. Autograph's own signatures are built in Swift DER instead (OpenSSL 3.0's
/// CMS signing always adds signingTime, which PAdES forbids).
package final class CMSContentInfo {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { CMS_ContentInfo_free(pointer) }

    /// Reads a DER ContentInfo.
    /// - Throws: `CryptoError` (`operation`) when it is not one.
    package convenience init(der: [UInt8], _ operation: CryptoOperation) throws(CryptoError) {
        try CryptoOperation.begin(operation)
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_CMS_ContentInfo(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .drained(operation, "d2i_CMS_ContentInfo") }
        self.init(taking: parsed)
    }

    /// The DER encoding.
    package func der(_ operation: CryptoOperation) throws(CryptoError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_CMS_ContentInfo(pointer, &output)
        guard length > 0, let output else { throw .drained(operation, "i2d_CMS_ContentInfo") }
        defer { CRYPTO_free(output, #file, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    // MARK: Envelopes

    /// The content encryption of an envelope.
    package enum EnvelopeCipher: Sendable {
        /// AES-256-GCM: AuthEnvelopedData (RFC 5083).
        case aes256GCM
        /// AES-256-CBC: EnvelopedData (RFC 5652 §6).
        case aes256CBC
    }

    /// Envelopes `data` for `recipient`: RSA keys through RSAES-OAEP, EC keys through ECDH key
    /// agreement (RFC 5753).
    /// - Throws: `CryptoError` (`.envelope`) when the certificate's key cannot receive or OpenSSL fails.
    package static func envelope(
        _ data: [UInt8], to recipient: X509Certificate, cipher: EnvelopeCipher
    ) throws(CryptoError) -> CMSContentInfo {
        try CryptoOperation.begin(.envelope)
        let flags = UInt32(CMS_BINARY | CMS_PARTIAL)
        let algorithm = cipher == .aes256GCM ? EVP_aes_256_gcm() : EVP_aes_256_cbc()
        guard let made = CMS_encrypt(nil, nil, algorithm, flags) else { throw .drained(.envelope, "CMS_encrypt") }
        let cms = CMSContentInfo(taking: made)
        guard let info = CMS_add1_recipient_cert(made, recipient.pointer, UInt32(CMS_KEY_PARAM)) else {
            throw .drained(.envelope, "CMS_add1_recipient_cert")
        }
        if CMS_RecipientInfo_type(info) == CMS_RECIPINFO_TRANS, let context = CMS_RecipientInfo_get0_pkey_ctx(info) {
            // RSAES-OAEP rather than PKCS#1 v1.5 key transport.
            guard EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_OAEP_PADDING) > 0 else {
                throw .drained(.envelope, "EVP_PKEY_CTX_set_rsa_padding")
            }
        }
        let bio = try MemoryBIO(reading: data, .envelope)
        guard CMS_final(made, bio.pointer, nil, flags) == 1 else { throw .drained(.envelope, "CMS_final") }
        return cms
    }

    /// Decrypts this envelope with `key` (and its certificate, to find the recipient).
    /// - Throws: `CryptoError` (`.envelope`) when the key is not a recipient or the data is damaged.
    package func decrypt(key: AsymmetricKey, certificate: X509Certificate?) throws(CryptoError) -> [UInt8] {
        let output = try MemoryBIO(.envelope)
        guard CMS_decrypt(pointer, key.pointer, certificate?.pointer, nil, output.pointer, UInt32(CMS_BINARY)) == 1
        else { throw .drained(.envelope, "CMS_decrypt") }
        return output.readAll()
    }

    // MARK: SignedData (a test oracle)

    /// A detached CMS SignedData made by OpenSSL's CMS API for a digest it is given: the
    /// messageDigest attribute set to `messageDigest`, contentType id-data, then
    /// `CMS_SignerInfo_sign` — what an app's signing server outside Autograph would return.
    ///
    /// - Parameters:
    ///   - digestName: OpenSSL's name of the digest ("sha256").
    /// - Throws: `CryptoError` (`.cmsSigning`) when OpenSSL fails.
    package static func signedData(
        messageDigest: [UInt8], certificate: X509Certificate, key: AsymmetricKey, chain: [X509Certificate],
        digestName: String
    ) throws(CryptoError) -> CMSContentInfo {
        try CryptoOperation.begin(.cmsSigning)
        let flags = UInt32(CMS_BINARY | CMS_PARTIAL | CMS_DETACHED | CMS_NOSMIMECAP)
        guard let made = CMS_sign(nil, nil, nil, nil, flags) else { throw .drained(.cmsSigning, "CMS_sign") }
        let cms = CMSContentInfo(taking: made)
        guard let md = EVP_get_digestbyname(digestName) else {
            throw .refused(.cmsSigning, "EVP_get_digestbyname", "OpenSSL knows no digest \"\(digestName)\"")
        }
        guard let signer = CMS_add1_signer(made, certificate.pointer, key.pointer, md, flags) else {
            throw .drained(.cmsSigning, "CMS_add1_signer")
        }
        // OpenSSL 3.0 refuses a certificate already there (the signer's, when the chain repeats it):
        // that refusal changes nothing.
        for item in chain where CMS_add1_cert(made, item.pointer) != 1 { ErrorQueue.clear() }
        let added = messageDigest.withUnsafeBytes {
            CMS_signed_add1_attr_by_NID(
                signer, NID_pkcs9_messageDigest, V_ASN1_OCTET_STRING, $0.baseAddress, Int32(messageDigest.count))
        }
        guard added == 1 else { throw .drained(.cmsSigning, "CMS_signed_add1_attr_by_NID") }
        let contentType = CMS_signed_add1_attr_by_OBJ(
            signer, OBJ_nid2obj(NID_pkcs9_contentType), V_ASN1_OBJECT, UnsafeRawPointer(OBJ_nid2obj(NID_pkcs7_data)),
            -1)
        guard contentType == 1 else { throw .drained(.cmsSigning, "CMS_signed_add1_attr_by_OBJ") }
        guard CMS_SignerInfo_sign(signer) == 1 else { throw .drained(.cmsSigning, "CMS_SignerInfo_sign") }
        return cms
    }
}
