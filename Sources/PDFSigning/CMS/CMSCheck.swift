/// Checks a CMS from outside before it goes into a document.
enum CMSCheck {
    /// Throws `.signingFailed` when the CMS's signed messageDigest is not `digest` (a CMS made for
    /// other content), or `.malformedData` when it is not a CMS SignedData.
    static func messageDigest(of cms: [UInt8], matches digest: [UInt8]) throws(SigningError) {
        let signedData = try CMSSignedData(der: cms)
        guard let signer = signedData.signerInfos.first else {
            throw SigningError(.malformedData, "the CMS has no signer")
        }
        guard let messageDigest = signer.messageDigest else {
            throw SigningError(.signingFailed, "the CMS has no signed messageDigest attribute")
        }
        guard messageDigest == digest else {
            throw SigningError(
                .signingFailed, "the CMS signs other content: its messageDigest is not this document's digest")
        }
    }
}
