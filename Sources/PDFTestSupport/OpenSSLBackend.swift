import AutographCrypto

/// A signing backend outside Autograph, as an app's server would be: OpenSSL's own CMS API (through
/// AutographCrypto's `CMSContentInfo.signedData`) makes a detached CMS SignedData for a document
/// digest it is given (the messageDigest attribute set to that digest, then `CMS_SignerInfo_sign`).
/// Used to test the external-CMS path.
public enum OpenSSLBackend {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// - Parameters: PEM bytes of the signer's certificate, its unencrypted key and the chain.
    public static func cms(
        digest: [UInt8], certificatePEM: [UInt8], keyPEM: [UInt8], chainPEM: [UInt8], digestName: String = "sha256"
    ) throws -> [UInt8] {
        guard let certificate = X509Certificate.all(pem: certificatePEM).first,
            let key = try? AsymmetricKey(privateKeyPEM: keyPEM, password: nil)
        else {
            throw Failure(description: "cannot read the certificate or key")
        }
        do {
            return try CMSContentInfo.signedData(
                messageDigest: digest, certificate: certificate, key: key, chain: X509Certificate.all(pem: chainPEM),
                digestName: digestName
            ).der(.cmsSigning)
        } catch {
            throw Failure(description: "signing the attributes failed: \(error)")
        }
    }
}
