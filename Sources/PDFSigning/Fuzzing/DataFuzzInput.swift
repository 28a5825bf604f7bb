import AutographJSON
import PDFForms

/// One fuzzing input for the readers of data that other parties send: DER and CMS (signatures,
/// certificates, CRLs, OCSP and time-stamp responses), XFDF and JSON. Shared by the fuzzer
/// (`Sources/FuzzData`) and the tests that replay what it found. The first byte chooses the reader,
/// the rest is the data:
///
/// - selector % 8 = 0: a CMS SignedData (a signature's `/Contents`), its signers' certificates and
///   signatures checked;
/// - 1: an X.509 certificate (DER, then the same bytes as PEM text), its extensions read;
/// - 2: a CRL (DER, then PEM);
/// - 3: an OCSP response (RFC 6960);
/// - 4: a time-stamp response (RFC 3161 §2.4.2) and a time-stamp token;
/// - 5: any DER, walked to the leaves with every primitive read every way; BER converted to DER;
/// - 6: XFDF (`autograph fill --xfdf`, the web API's import);
/// - 7: JSON (the web API's bodies, `autograph fill --json`): parsed, re-serialised and parsed again
///   to the same value, and read as form values.
package enum DataFuzzInput {
    /// Reads `input` as the selector says.
    package static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        switch selector % 8 {
        case 0:
            guard let signedData = try? CMSSignedData(der: body) else { return }
            for signerInfo in signedData.signerInfos {
                if let certificate = signedData.signerCertificate(for: signerInfo) {
                    _ = certificate.subject
                }
                _ = signedData.verifySignature(of: signerInfo)
            }
        case 1:
            for certificate in [try? Certificate(der: body)].compactMap({ $0 }) + Certificate.certificates(pem: body) {
                _ = (certificate.ocspURLs, certificate.caIssuersURLs, certificate.crlDistributionPointURLs)
                _ = certificate.extendedKeyUsage
                _ = certificate.isValid(at: 1_700_000_000)
            }
        case 2:
            _ = try? CertificateRevocationList(der: body)
            _ = try? CertificateRevocationList(pem: body)
        case 3:
            if let response = try? OCSPResponse(der: body) {
                _ = response.responses.map(\.certificateID)
            }
        case 4:
            if let response = try? TimeStampResponse(der: body), let token = response.token {
                _ = try? TimeStampToken(der: token)
            }
            if let token = try? TimeStampToken(der: body) {
                _ = token.problem(imprint: [UInt8](repeating: 0, count: 32), algorithm: .sha256)
            }
        case 5:
            var reader = DERReader(body)
            walk(&reader)
            if BERConverter.needsConversion(body) { _ = try? BERConverter.definiteLength(body) }
        case 6:
            _ = try? XFDF.decode(String(decoding: body, as: UTF8.self))
        default:
            guard let value = try? JSONValue.parse(body) else { return }
            let text = value.serialized()
            let again = try? JSONValue.parse(Array(text.utf8))
            precondition(again == value, "JSON that is read back from its own serialisation is the same value")
            _ = try? FormValues(json: String(decoding: body, as: UTF8.self))
        }
    }

    /// Reads every node under `reader`, each primitive as every kind of value.
    static func walk(_ reader: inout DERReader) {
        while !reader.isAtEnd {
            guard let node = try? reader.readNode() else { return }
            if node.tag.isConstructed {
                guard var inner = try? node.contentReader() else { continue }
                walk(&inner)
            } else {
                var values = DERReader(node.encoded)
                _ = try? values.readInteger()
                values = DERReader(node.encoded)
                _ = try? values.readObjectIdentifier()
                values = DERReader(node.encoded)
                _ = try? values.readTime()
                values = DERReader(node.encoded)
                _ = try? values.readString()
                values = DERReader(node.encoded)
                _ = try? values.readBitString()
                values = DERReader(node.encoded)
                _ = try? values.readBoolean()
            }
        }
    }
}
