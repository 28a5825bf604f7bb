import COpenSSL

/// A signing backend outside Autograph, as an app's server would be: OpenSSL's own CMS API makes a
/// detached CMS SignedData for a document digest it is given (the messageDigest attribute set to
/// that digest, then `CMS_SignerInfo_sign`). Used to test the external-CMS path.
public enum OpenSSLBackend {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// - Parameters: PEM bytes of the signer's certificate, its unencrypted key and the chain.
    public static func cms(
        digest: [UInt8], certificatePEM: [UInt8], keyPEM: [UInt8], chainPEM: [UInt8], digestName: String = "sha256"
    ) throws -> [UInt8] {
        guard let certificate = readCertificates(certificatePEM).first, let key = readKey(keyPEM) else {
            throw Failure(description: "cannot read the certificate or key")
        }
        defer {
            X509_free(certificate)
            EVP_PKEY_free(key)
        }
        let chain = readCertificates(chainPEM)
        defer { for item in chain { X509_free(item) } }
        let flags = UInt32(CMS_BINARY | CMS_PARTIAL | CMS_DETACHED | CMS_NOSMIMECAP)
        guard let cms = CMS_sign(nil, nil, nil, nil, flags) else { throw Failure(description: "CMS_sign failed") }
        defer { CMS_ContentInfo_free(cms) }
        guard let signer = CMS_add1_signer(cms, certificate, key, EVP_get_digestbyname(digestName), flags) else {
            throw Failure(description: "CMS_add1_signer failed")
        }
        for item in chain { CMS_add1_cert(cms, item) }
        let added = digest.withUnsafeBytes {
            CMS_signed_add1_attr_by_NID(
                signer, NID_pkcs9_messageDigest, V_ASN1_OCTET_STRING, $0.baseAddress, Int32(digest.count))
        }
        let contentType = CMS_signed_add1_attr_by_OBJ(
            signer, OBJ_nid2obj(NID_pkcs9_contentType), V_ASN1_OBJECT, UnsafeRawPointer(OBJ_nid2obj(NID_pkcs7_data)), -1
        )
        guard added == 1, contentType == 1, CMS_SignerInfo_sign(signer) == 1 else {
            var message = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(ERR_get_error(), &message, message.count)
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw Failure(description: "signing the attributes failed: \(text)")
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_CMS_ContentInfo(cms, &output)
        guard length > 0, let output else { throw Failure(description: "encoding the CMS failed") }
        defer { CRYPTO_free(output, #file, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    private static func readCertificates(_ pem: [UInt8]) -> [OpaquePointer] {
        pem.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return [] }
            defer { BIO_free(bio) }
            var result: [OpaquePointer] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { result.append(certificate) }
            ERR_clear_error()
            return result
        }
    }

    private static func readKey(_ pem: [UInt8]) -> OpaquePointer? {
        pem.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
    }
}
