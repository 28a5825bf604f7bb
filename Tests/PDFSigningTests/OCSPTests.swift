import Foundation
import PDFCore
import PDFTestSupport
import Testing

@testable import PDFSigning

/// OCSP (RFC 6960) against certomancer's responders on loopback: requests in Autograph's DER, read
/// by `openssl ocsp`; responses fetched with `OCSPClient`, parsed and checked by Autograph and by
/// `openssl ocsp -respin`, which must agree; tampered, stale and foreign responses refused.
@Suite("OCSP requests and responses against certomancer, checked by openssl ocsp")
struct OCSPTests {
    /// The revocation time of `signer-revoked`: 2026-06-01T00:00:00Z.
    static let revocationTime = 1_780_272_000

    static func services() throws -> Certomancer { try Certomancer.shared() }

    /// The certomancer certificate `label`.
    static func certificate(_ label: String, _ services: Certomancer) throws -> Certificate {
        let pem = try Data(contentsOf: URL(fileURLWithPath: try services.certificate(label)))
        return try #require(Certificate.certificates(pem: Array(pem)).first)
    }

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = try TestPaths.temporaryDirectory("ocsp") + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined() }

    /// `openssl ocsp -respin` of `response` about the certificate `label`, issued by `issuer`,
    /// trusting the root: the status line and OpenSSL's verdict on the signature.
    static func openssl(
        _ response: OCSPResponse, about label: String, issuer: String, _ services: Certomancer
    ) throws -> Oracle.Result {
        let path = try write(response.encoded, "\(label).ocsp")
        return try Oracle.run(
            "openssl",
            [
                "ocsp", "-respin", path, "-resp_text", "-CAfile", services.rootCertificatePath,
                "-issuer", try services.certificate(issuer), "-verify_other", try services.certificate(issuer),
                "-cert", try services.certificate(label), "-no_nonce",
            ])
    }

    /// A response to `request` POSTed with curl, as at `fakeTime` when given.
    static func post(_ request: OCSPRequest, to url: String, fakeTime: String? = nil) throws -> OCSPResponse {
        let body = try write(request.encoded, "request-\(UUID().uuidString).der")
        let output = body + ".response"
        var arguments = ["-s", "-S", "-f", "--max-time", "30", "-o", output]
        arguments += ["-H", "Content-Type: application/ocsp-request", "--data-binary", "@" + body]
        if let fakeTime { arguments += ["-H", "\(Certomancer.fakeTimeHeader): \(fakeTime)"] }
        let result = try Oracle.run("curl", arguments + [url])
        try #require(result.status == 0, "curl \(url): \(result.errors)")
        return try OCSPResponse(der: Array(try Data(contentsOf: URL(fileURLWithPath: output))))
    }

    @Test("The authority information access extension names the OCSP responders and the issuers' certificates")
    func authorityInformationAccess() throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        #expect(signer.ocspURLs == [services.ocspURL()])
        #expect(signer.caIssuersURLs.count == 1 && signer.caIssuersURLs[0].hasPrefix(services.baseURL))
        #expect(signer.caIssuersURLs[0].contains("intermediate"), "\(signer.caIssuersURLs)")
        let intermediate = try Self.certificate("intermediate", services)
        #expect(intermediate.ocspURLs == [services.ocspURL("root")])
        let root = try Self.certificate("root", services)
        #expect(root.ocspURLs.isEmpty && root.caIssuersURLs.isEmpty)
    }

    @Test("A request openssl ocsp reads: SHA-1 CertID, a 32-octet nonce; without a nonce, OpenSSL's own bytes")
    func requestForOpenSSL() throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let intermediate = try Self.certificate("intermediate", services)
        let request = try OCSPRequest(certificate: signer, issuer: intermediate)
        let nonce = try #require(request.nonce)
        #expect(nonce.count == 32 && request.serialNumber == "03E9")
        let path = try Self.write(request.encoded, "request.der")
        let text = try Oracle.run("openssl", ["ocsp", "-reqin", path, "-text"])
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.contains("Hash Algorithm: sha1") && text.output.contains("Serial Number: 03E9"))
        // The nonce extension's value is an OCTET STRING (04 20) holding the 32 octets.
        let dump = text.output.uppercased().filter { $0.isHexDigit }
        #expect(dump.contains("0420" + Self.hex(nonce)), "\(text.output)")

        // OpenSSL's request for the same certificate, without a nonce, is byte for byte ours.
        let theirs = try TestPaths.temporaryDirectory("ocsp") + "/openssl-request.der"
        let made = try Oracle.run(
            "openssl",
            [
                "ocsp", "-issuer", try services.certificate("intermediate"), "-cert",
                try services.certificate("signer"),
                "-no_nonce", "-reqout", theirs,
            ])
        #expect(made.status == 0, "\(made.errors)")
        let plain = try OCSPRequest(certificate: signer, issuer: intermediate, nonce: nil)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: theirs))) == plain.encoded)

        let wrongIssuer = #expect(throws: SigningError.self) {
            try OCSPRequest(certificate: signer, issuer: signer)
        }
        #expect(wrongIssuer?.code == .invalidArgument)
        let longNonce = #expect(throws: SigningError.self) {
            try OCSPRequest(certificate: signer, issuer: intermediate, nonce: [UInt8](repeating: 1, count: 129))
        }
        #expect(longNonce?.code == .invalidArgument)
    }

    @Test("signer is good, signed by the delegated responder; openssl ocsp -respin agrees and verifies it")
    func good() async throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let intermediate = try Self.certificate("intermediate", services)
        let before = PDFDate.now().seconds
        let response = try await OCSPClient().fetch(for: signer, issuer: intermediate)
        #expect(response.status == .successful)
        #expect(response.status(of: signer, issuer: intermediate) == .good)
        // Current when it was produced (the test may resume minutes later in a busy process).
        #expect(response.problem(for: signer, issuer: intermediate, at: response.producedAt ?? 0) == nil)
        let single = try #require(response.singleResponse(for: signer, issuer: intermediate))
        #expect(single.serialNumber == "03E9")
        #expect(abs(single.thisUpdate - before) < 60, "\(single.thisUpdate) \(before)")
        let nextUpdate = try #require(single.nextUpdate)
        #expect(nextUpdate - single.thisUpdate == 600 || nextUpdate - single.thisUpdate == 599)
        let delegate = try Self.certificate("intermediate-ocsp", services)
        #expect(response.certificates.contains(delegate))
        #expect(response.signer(named: try #require(response.responderID), issuer: intermediate) == delegate)
        if case .keyHash = response.responderID {} else { Issue.record("certomancer names its responders by key") }
        #expect(response.nonce?.count == OCSPRequest.nonceLength)
        #expect(response.basicResponse.map { response.encoded.count > $0.count } == true)

        let oracle = try Self.openssl(response, about: "signer", issuer: "intermediate", services)
        #expect(oracle.status == 0, "\(oracle.errors)")
        #expect(oracle.output.contains("signer.cert.pem: good"), "\(oracle.output)")
        #expect(oracle.errors.contains("Response verify OK"), "\(oracle.errors)")
    }

    @Test("signer-revoked is revoked since 2026-06-01 for keyCompromise; openssl ocsp -respin agrees")
    func revoked() async throws {
        let services = try Self.services()
        let revokedSigner = try Self.certificate("signer-revoked", services)
        let intermediate = try Self.certificate("intermediate", services)
        let response = try await OCSPClient().fetch(for: revokedSigner, issuer: intermediate)
        let status = response.status(of: revokedSigner, issuer: intermediate)
        #expect(status == .revoked(time: Self.revocationTime, reason: .keyCompromise), "\(String(describing: status))")
        #expect(status?.isRevoked == true)
        // The response is usable: it says "revoked", which is what the caller decides on.
        #expect(response.problem(for: revokedSigner, issuer: intermediate, at: response.producedAt ?? 0) == nil)
        // It says nothing of another certificate of the same issuer.
        let signer = try Self.certificate("signer", services)
        #expect(response.status(of: signer, issuer: intermediate) == nil)
        #expect(response.problem(for: signer, issuer: intermediate, at: nil)?.contains("says nothing") == true)

        let oracle = try Self.openssl(response, about: "signer-revoked", issuer: "intermediate", services)
        #expect(oracle.output.contains("signer-revoked.cert.pem: revoked"), "\(oracle.output)")
        #expect(oracle.output.contains("Reason: keyCompromise"))
        #expect(oracle.output.contains("Revocation Time: Jun  1 00:00:00 2026 GMT"))
        #expect(oracle.errors.contains("Response verify OK"), "\(oracle.errors)")
    }

    @Test("The intermediate is good at the root's responder, which signs itself without a delegate")
    func intermediateAtRoot() async throws {
        let services = try Self.services()
        let intermediate = try Self.certificate("intermediate", services)
        let root = try Self.certificate("root", services)
        let response = try await OCSPClient().fetch(for: intermediate, issuer: root)
        #expect(response.status(of: intermediate, issuer: root) == .good)
        #expect(response.signer(named: try #require(response.responderID), issuer: root) == root)
        #expect(response.problem(for: intermediate, issuer: root, at: response.producedAt ?? 0) == nil)

        let path = try Self.write(response.encoded, "intermediate.ocsp")
        let oracle = try Oracle.run(
            "openssl",
            [
                "ocsp", "-respin", path, "-resp_text", "-CAfile", services.rootCertificatePath, "-issuer",
                services.rootCertificatePath, "-cert", try services.certificate("intermediate"), "-no_nonce",
            ])
        #expect(oracle.output.contains("intermediate.cert.pem: good"), "\(oracle.output)")
        #expect(oracle.errors.contains("Response verify OK"), "\(oracle.errors)")
    }

    @Test("A CertID hashed with SHA-256 (openssl ocsp -sha256) is matched as well")
    func sha256CertificateID() throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let intermediate = try Self.certificate("intermediate", services)
        let path = try TestPaths.temporaryDirectory("ocsp") + "/sha256-request.der"
        let made = try Oracle.run(
            "openssl",
            [
                "ocsp", "-issuer", try services.certificate("intermediate"), "-sha256", "-cert",
                try services.certificate("signer"), "-no_nonce", "-reqout", path,
            ])
        try #require(made.status == 0, "\(made.errors)")
        let body = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let output = path + ".response"
        let posted = try Oracle.run(
            "curl",
            [
                "-s", "-S", "-f", "--max-time", "30", "-o", output, "-H", "Content-Type: application/ocsp-request",
                "--data-binary", "@" + path, services.ocspURL(),
            ])
        try #require(posted.status == 0, "\(posted.errors)")
        let response = try OCSPResponse(der: Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        let single = try #require(response.responses.first)
        #expect(single.certificateID.hashAlgorithm.algorithm == .sha256 && body.count > 0)
        #expect(response.status(of: signer, issuer: intermediate) == .good)
        // Current when it was produced (the test may resume minutes later in a busy process).
        #expect(response.problem(for: signer, issuer: intermediate, at: response.producedAt ?? 0) == nil)
    }

    @Test("Tampering is a problem: a changed signature, another issuer, another nonce, no nonce at all")
    func tampering() async throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let intermediate = try Self.certificate("intermediate", services)
        let root = try Self.certificate("root", services)
        let response = try await OCSPClient().fetch(for: signer, issuer: intermediate)
        let now = try #require(response.producedAt)

        // One octet of the signature changed.
        var bytes = response.encoded
        let signature = response.signature
        let start = try #require(
            (0...(bytes.count - signature.count)).first { bytes[$0..<($0 + signature.count)].elementsEqual(signature) })
        bytes[start + signature.count - 1] ^= 0x01
        let tampered = try OCSPResponse(der: bytes)
        #expect(tampered.status(of: signer, issuer: intermediate) == .good, "still readable")
        let problem = tampered.problem(for: signer, issuer: intermediate, at: now)
        #expect(problem?.contains("signature is not valid") == true, "\(problem ?? "nil")")

        // Checked against another issuer: the root neither issued signer nor signed the response.
        #expect(response.status(of: signer, issuer: root) == nil)
        #expect(response.problem(for: signer, issuer: root, at: now) != nil)
        // The intermediate's response about the intermediate's certificate, claimed for the root's.
        let rootResponse = try await OCSPClient().fetch(for: intermediate, issuer: root)
        #expect(rootResponse.problem(for: signer, issuer: intermediate, at: now) != nil)

        // Nonces: another one, or one the response does not carry.
        let other = [UInt8](repeating: 7, count: 32)
        #expect(response.problem(for: signer, issuer: intermediate, at: now, nonce: other)?.contains("nonce") == true)
        #expect(response.problem(for: signer, issuer: intermediate, at: now, nonce: response.nonce) == nil)
        let plain = try Self.post(
            try OCSPRequest(certificate: signer, issuer: intermediate, nonce: nil), to: services.ocspURL())
        #expect(plain.nonce == nil)
        // At its own time: it was fetched after the first response, perhaps minutes after.
        let plainTime = try #require(plain.producedAt)
        #expect(plain.problem(for: signer, issuer: intermediate, at: plainTime) == nil)
        #expect(
            plain.problem(for: signer, issuer: intermediate, at: plainTime, nonce: other)?.contains("nonce") == true)
    }

    @Test("A response is out of date after its nextUpdate: a day later, or one made as at 2026-03-01")
    func freshness() async throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let revokedSigner = try Self.certificate("signer-revoked", services)
        let intermediate = try Self.certificate("intermediate", services)
        let response = try await OCSPClient().fetch(for: signer, issuer: intermediate)
        // The response's own time, not the clock's: a test process busy with other tests may resume
        // this one minutes after the response came.
        let now = try #require(response.singleResponse(for: signer, issuer: intermediate)?.thisUpdate)
        let late = response.problem(for: signer, issuer: intermediate, at: now + 86_400)
        #expect(late?.contains("out of date") == true, "\(late ?? "nil")")
        let early = response.problem(for: signer, issuer: intermediate, at: now - 86_400)
        #expect(early?.contains("thisUpdate") == true, "\(early ?? "nil")")
        #expect(response.problem(for: signer, issuer: intermediate, at: now + 240) == nil, "within the clock skew")

        // As at 2026-03-01T12:00:00Z, before its revocation, signer-revoked was good; that answer is
        // current then and out of date now.
        let request = try OCSPRequest(certificate: revokedSigner, issuer: intermediate)
        let past = try Self.post(request, to: services.ocspURL(), fakeTime: "2026-03-01T12:00:00+00:00")
        let then = 1_772_366_400
        #expect(past.producedAt == then)
        #expect(past.status(of: revokedSigner, issuer: intermediate) == .good)
        #expect(
            past.problem(for: revokedSigner, issuer: intermediate, at: then + 60, nonce: request.nonce) == nil)
        let stale = past.problem(for: revokedSigner, issuer: intermediate, at: now, nonce: request.nonce)
        #expect(stale?.contains("out of date") == true, "\(stale ?? "nil")")
    }

    @Test("The client refuses: no OCSP URL, nobody listening, no responder there, the wrong responder")
    func clientFailures() async throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let intermediate = try Self.certificate("intermediate", services)
        let root = try Self.certificate("root", services)
        let client = OCSPClient()
        let noURL = await #expect(throws: SigningError.self) { _ = try await client.fetch(for: root, issuer: root) }
        #expect(noURL?.code == .invalidArgument)
        let scheme = await #expect(throws: SigningError.self) {
            _ = try await client.fetch(for: signer, issuer: intermediate, from: "file:///etc/passwd")
        }
        #expect(scheme?.code == .invalidArgument)
        let refusals = [
            ("http://127.0.0.1:1/ocsp", "cannot be reached"), (services.url("ocsp/nothing-here"), "HTTP 404"),
            (services.ocspURL("root"), "answered unauthorized"),
        ]
        for (url, reason) in refusals {
            let error = await #expect(throws: SigningError.self) {
                _ = try await client.fetch(for: signer, issuer: intermediate, from: url)
            }
            #expect(error?.code == .signingFailed && error?.signoCode == -129, "\(url)")
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        }
    }

    @Test("Every prefix of a response and random bytes throw; every changed octet throws or is a problem")
    func damagedResponses() async throws {
        let services = try Self.services()
        let signer = try Self.certificate("signer", services)
        let intermediate = try Self.certificate("intermediate", services)
        let response = try await OCSPClient().fetch(for: signer, issuer: intermediate)
        let bytes = response.encoded
        let time = try #require(response.producedAt)
        for length in 0..<bytes.count {
            #expect(throws: SigningError.self, "prefix of \(length) octets") {
                try OCSPResponse(der: Array(bytes.prefix(length)))
            }
        }
        var random = SplitMix64(state: 0x6960)
        for count in [1, 2, 3, 16, 200, 2000] {
            for _ in 0..<20 {
                var garbage = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
                #expect(throws: SigningError.self) { try OCSPResponse(der: garbage) }
                garbage[0] = 0x30  // a SEQUENCE of garbage
                #expect(throws: SigningError.self) { try OCSPResponse(der: garbage) }
            }
        }
        var unnoticed: [Int] = []
        var readable = 0
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            guard let parsed = try? OCSPResponse(der: changed) else { continue }
            readable += 1
            if parsed.problem(for: signer, issuer: intermediate, at: time, nonce: response.nonce) == nil {
                unnoticed.append(index)
            }
        }
        // Most changes leave a readable response (in the signature, the names, the times …).
        #expect(readable > bytes.count / 2, "\(readable) of \(bytes.count)")
        #expect(unnoticed.isEmpty, "changes at \(unnoticed) of \(bytes.count) octets went unnoticed")
    }
}
