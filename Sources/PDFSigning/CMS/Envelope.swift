import AutographCrypto

/// Encrypts data to a certificate as CMS AuthEnvelopedData (RFC 5083, AES-256-GCM) or
/// EnvelopedData (RFC 5652, AES-256-CBC): RSA keys through RSAES-OAEP, EC keys through ECDH key
/// agreement (RFC 5753). OpenSSL's CMS API builds it, through AutographCrypto (the signingTime
/// problem of its SignedData does not concern enveloping). Used for biometric data only the holder
/// of the key may read.
package enum Envelope {
    /// The DER of the CMS ContentInfo enveloping `data` for `recipient`.
    /// - Throws: `.biometricsCertificateUnreadable` (-131) when the certificate's key cannot receive.
    package static func seal(_ data: [UInt8], to recipient: Certificate) throws(SigningError) -> [UInt8] {
        // AuthEnvelopedData first; a key or an OpenSSL that cannot make it gets EnvelopedData.
        for cipher in [CMSContentInfo.EnvelopeCipher.aes256GCM, .aes256CBC] {
            if let sealed = try? CMSContentInfo.envelope(data, to: recipient.x509, cipher: cipher).der(.envelope) {
                return sealed
            }
        }
        throw SigningError(.biometricsCertificateUnreadable, "cannot encrypt to the certificate \(recipient.subject)")
    }

    /// Decrypts an envelope with `key` (and its certificate, to find the recipient).
    /// - Throws: `.malformedData` when the bytes are not a CMS ContentInfo, `.signingFailed` when the
    ///   key is not a recipient or the data is damaged.
    package static func open(_ envelope: [UInt8], key: PrivateKey, certificate: Certificate?) throws(SigningError)
        -> [UInt8]
    {
        let cms = try signingStep(.malformedData, "the envelope is not a CMS ContentInfo") {
            try CMSContentInfo(der: envelope, .envelope)
        }
        return try signingStep(.signingFailed, "the envelope does not open with this key (wrong key, or damaged data)")
        {
            try cms.decrypt(key: key.key, certificate: certificate?.x509)
        }
    }
}
