import Foundation
import PDFTestSupport
import Testing

@testable import PDFSigning

/// RFC 3161 requests and answers in Autograph's DER, read back by OpenSSL (`openssl ts`).
@Suite struct TimeStampRequestTests {
    @Test("A request OpenSSL reads: SHA-256 imprint, a 64-bit nonce, the certificate asked for, a policy")
    func requestForOpenSSL() throws {
        let data = Array("what you see is what you sign".utf8)
        let request = try TimeStampRequest(hashing: data, policy: "1.2.3.4.5")
        let path = try TestPaths.temporaryDirectory("tsq") + "/request.tsq"
        try Data(request.encoded).write(to: URL(fileURLWithPath: path))
        let text = try Oracle.run("openssl", ["ts", "-query", "-in", path, "-text"])
        #expect(text.status == 0, "\(text.output)")
        let imprint = try DigestAlgorithm.sha256.hash(data)
        #expect(text.output.contains("Hash Algorithm: sha256"), "\(text.output)")
        let parsed = try Oracle.run("openssl", ["asn1parse", "-inform", "DER", "-in", path])
        let hex = imprint.map { String(format: "%02X", $0) }.joined()
        #expect(parsed.output.contains("[HEX DUMP]:" + hex), "\(parsed.output)")
        #expect(text.output.contains("Policy OID: 1.2.3.4.5") && text.output.contains("Certificate required: yes"))
        let nonce = request.nonce.map { String(format: "%02X", $0) }.joined()
        #expect(text.output.uppercased().contains("NONCE: 0X" + nonce), "\(text.output) \(nonce)")
        #expect(request.nonce.count == 8 && request.nonce[0] & 0x80 == 0 && request.nonce[0] != 0)
    }

    @Test("A request refuses an imprint of the wrong length and a policy that is no object identifier")
    func badRequests() {
        let short = #expect(throws: SigningError.self) { try TimeStampRequest(imprint: [1, 2, 3], algorithm: .sha256) }
        #expect(short?.code == .invalidArgument)
        let policy = #expect(throws: SigningError.self) {
            try TimeStampRequest(hashing: [1], policy: "not an oid")
        }
        #expect(policy?.code == .invalidArgument)
    }

    @Test("An answer that refuses says the authority's status, failure and text, as −146")
    func refusal() throws {
        // TimeStampResp { PKIStatusInfo { rejection (2), ["policy unknown"], failInfo unacceptedPolicy (bit 15) } }
        var writer = DERWriter()
        writer.sequence { response in
            response.sequence { info in
                info.integer(2)
                info.sequence { $0.utf8String("policy unknown") }
                info.bitString([0x00, 0x01], unusedBits: 0)
            }
        }
        let request = try TimeStampRequest(hashing: [1, 2, 3])
        let error = #expect(throws: SigningError.self) {
            try TimeStampResponse(der: writer.bytes).token(answering: request)
        }
        #expect(error?.code == .timestampFailed && error?.signoCode == -146)
        #expect(
            error?.message.contains("rejection (unacceptedPolicy): policy unknown") == true, "\(error?.message ?? "")")
        let garbage = #expect(throws: SigningError.self) { try TimeStampResponse(der: [0x30, 0x03, 0x02]) }
        #expect(garbage?.code == .timestampFailed)
    }
}
