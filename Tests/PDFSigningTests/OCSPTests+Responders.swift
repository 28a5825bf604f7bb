import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// Who may sign a response (RFC 6960 §4.2.2.2): responses made here with the certomancer PKI's keys
/// (signed by `openssl dgst -sign`), judged by Autograph and by `openssl ocsp -respin`.
extension OCSPTests {
    /// Who signs a response made here: a certificate of the PKI, its key, and how the response names it.
    struct Responder {
        var label: String
        var byName: Bool
        var sha1 = false
    }

    /// An OCSP response saying `certificate` (issued by `issuer`) is good, signed with the key of
    /// `responder`, carrying `carried`, produced at `producedAt` (nextUpdate 10 minutes later).
    static func forge(
        about certificate: Certificate, issuer: Certificate, responder: Responder, carrying carried: [Certificate],
        producedAt: Int, _ services: Certomancer
    ) throws -> OCSPResponse {
        let signer = try Self.certificate(responder.label, services)
        var data = DERWriter()
        data.sequence { fields in
            if responder.byName {
                fields.explicit(1) { $0.appendEncoded(signer.subjectDER) }
            } else {
                let keyHash = (try? OCSPCertificateID(certificate: signer, issuer: signer).issuerKeyHash) ?? []
                fields.explicit(2) { $0.octetString(keyHash) }
            }
            fields.generalizedTime(producedAt)
            fields.sequence { list in
                list.sequence { single in
                    (try? OCSPRequest(certificate: certificate, issuer: issuer, nonce: nil))?.certificateID.write(
                        to: &single)
                    single.append(tag: .context(0, constructed: false), content: [UInt8]())  // good
                    single.generalizedTime(producedAt)
                    single.explicit(0) { $0.generalizedTime(producedAt + 600) }
                }
            }
        }
        let tbs = try Self.write(data.bytes, "tbs-\(UUID().uuidString).der")
        let signature = tbs + ".sig"
        let key = TestPaths.fixture("certomancer", "keys/\(responder.label).key.pem")
        let signed = try Oracle.run(
            "openssl", ["dgst", responder.sha1 ? "-sha1" : "-sha256", "-sign", key, "-out", signature, tbs])
        try #require(signed.status == 0, "\(signed.errors)")
        let isRSA = if case .rsa = signer.publicKeyKind { true } else { false }
        let algorithm: AlgorithmIdentifier =
            switch (isRSA, responder.sha1) {
            case (true, false): AlgorithmIdentifier(.sha256WithRSAEncryption, parameters: [0x05, 0x00])
            case (true, true): AlgorithmIdentifier(.sha1WithRSASignature, parameters: [0x05, 0x00])
            case (false, false): AlgorithmIdentifier(.ecdsaWithSHA256)
            case (false, true): AlgorithmIdentifier(.ecdsaWithSHA1Signature)
            }
        var basic = DERWriter()
        basic.sequence { body in
            body.appendEncoded(data.bytes)
            algorithm.write(to: &body)
            body.bitString((try? Data(contentsOf: URL(fileURLWithPath: signature))).map { Array($0) } ?? [])
            if !carried.isEmpty {
                body.explicit(0) { explicit in
                    explicit.sequence { list in
                        for certificate in carried { list.appendEncoded(certificate.derBytes) }
                    }
                }
            }
        }
        var response = DERWriter()
        response.sequence { outer in
            outer.append(tag: .enumerated, content: [0])
            outer.explicit(0) { explicit in
                explicit.sequence { bytes in
                    bytes.objectIdentifier(.basicOCSPResponse)
                    bytes.octetString(basic.bytes)
                }
            }
        }
        return try OCSPResponse(der: response.bytes)
    }

    /// `openssl ocsp -respin` of `response` about `label` issued by `issuer`, trusting the root and
    /// taking the intermediate as untrusted: whether OpenSSL verifies it, and what it says.
    static func opensslVerifies(
        _ response: OCSPResponse, about label: String, issuer: String, _ services: Certomancer
    ) throws -> (verified: Bool, text: String) {
        let path = try write(response.encoded, "forged-\(UUID().uuidString).ocsp")
        let result = try Oracle.run(
            "openssl",
            [
                "ocsp", "-respin", path, "-resp_text", "-CAfile", services.rootCertificatePath, "-verify_other",
                try services.certificate("intermediate"), "-issuer", try services.certificate(issuer), "-cert",
                try services.certificate(label), "-no_nonce",
            ])
        return (result.errors.contains("Response verify OK"), result.output + result.errors)
    }

    @Test(
        "The issuer itself or its delegate, named by Name or by key, SHA-2 or SHA-1: usable for Autograph and OpenSSL",
        arguments: [
            ("intermediate", Responder(label: "intermediate", byName: true), false),
            ("intermediate", Responder(label: "intermediate", byName: false), false),
            ("intermediate", Responder(label: "intermediate-ocsp", byName: true), true),
            ("intermediate", Responder(label: "intermediate-ocsp", byName: false, sha1: true), true),
            ("root", Responder(label: "root", byName: true, sha1: true), false),
            ("root", Responder(label: "root", byName: false), false),
        ])
    func acceptedResponders(issuerLabel: String, responder: Responder, carriesResponder: Bool) throws {
        let services = try Self.services()
        let label = issuerLabel == "root" ? "intermediate" : "signer"
        let certificate = try Self.certificate(label, services)
        let issuer = try Self.certificate(issuerLabel, services)
        let carried = carriesResponder ? [try Self.certificate(responder.label, services)] : []
        let now = PDFDate.now().seconds
        let response = try Self.forge(
            about: certificate, issuer: issuer, responder: responder, carrying: carried, producedAt: now, services)
        #expect(response.status(of: certificate, issuer: issuer) == .good)
        #expect(response.problem(for: certificate, issuer: issuer, at: now) == nil)
        let oracle = try Self.opensslVerifies(response, about: label, issuer: issuerLabel, services)
        #expect(oracle.verified && oracle.text.contains(": good"), "\(oracle.text)")
    }

    @Test("A certificate of the issuer without id-kp-OCSPSigning may not answer; OpenSSL refuses it too")
    func responderWithoutOCSPSigning() throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let intermediate = try Self.certificate("intermediate", services)
        let tsa = try Self.certificate("tsa", services)
        let now = PDFDate.now().seconds
        for byName in [true, false] {
            let response = try Self.forge(
                about: signer, issuer: intermediate, responder: Responder(label: "tsa", byName: byName),
                carrying: [tsa], producedAt: now, services)
            let problem = response.problem(for: signer, issuer: intermediate, at: now)
            #expect(problem?.contains("not for OCSP signing") == true, "\(problem ?? "nil")")
            let oracle = try Self.opensslVerifies(response, about: "signer", issuer: "intermediate", services)
            #expect(!oracle.verified, "\(oracle.text)")
        }
    }

    @Test("A delegate the response does not carry, another issuer's delegate, a delegate expired when it signed")
    func delegatesRefused() throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let intermediate = try Self.certificate("intermediate", services)
        let root = try Self.certificate("root", services)
        let delegate = try Self.certificate("intermediate-ocsp", services)
        let now = PDFDate.now().seconds
        let responder = Responder(label: "intermediate-ocsp", byName: false)

        let uncarried = try Self.forge(
            about: signer, issuer: intermediate, responder: responder, carrying: [], producedAt: now, services)
        #expect(uncarried.problem(for: signer, issuer: intermediate, at: now)?.contains("signed neither") == true)

        // The intermediate's delegate answering for a certificate the root issued.
        let foreign = try Self.forge(
            about: intermediate, issuer: root, responder: responder, carrying: [delegate], producedAt: now, services)
        #expect(foreign.problem(for: intermediate, issuer: root, at: now)?.contains("signed neither") == true)
        #expect(!(try Self.opensslVerifies(foreign, about: "intermediate", issuer: "root", services)).verified)

        // Produced in 2036, after the delegate's certificate ended (2035-12-31).
        let late = 2_096_150_400  // 2036-06-04T00:00:00Z
        let expired = try Self.forge(
            about: signer, issuer: intermediate, responder: responder, carrying: [delegate], producedAt: late, services)
        let problem = expired.problem(for: signer, issuer: intermediate, at: nil)
        #expect(problem?.contains("not valid when it signed") == true, "\(problem ?? "nil")")

        // A delegate's certificate presented as the issuer's: its Name is not the signer's issuer.
        #expect(OCSPResponse.delegationProblem(delegate, issuer: root, at: now)?.contains("not signed by") == true)
        #expect(OCSPResponse.delegationProblem(delegate, issuer: intermediate, at: now) == nil)
        #expect(delegate.isSigned(by: intermediate) && !delegate.isSigned(by: root) && !signer.isSigned(by: delegate))
        #expect(intermediate.isSigned(by: root) && root.isSigned(by: root))
    }
}
