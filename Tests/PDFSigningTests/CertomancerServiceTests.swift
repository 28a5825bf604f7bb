import Foundation
import PDFTestSupport
import Testing

/// The services later signatures rely on (RFC 3161 time stamps, OCSP, CRLs) are real and reachable:
/// certomancer's Animator on loopback (`Certomancer`), asked and checked by openssl and curl alone,
/// so that Autograph's own clients are tested against services known to answer right.
@Suite("certomancer's time stamping, OCSP and CRL services on loopback, checked by openssl and curl")
struct CertomancerServiceTests {
    /// One Animator for the suite (and for every other test of the process that shares it).
    static func services() throws -> Certomancer { try Certomancer.shared() }

    /// `openssl ARGUMENTS`; the test fails with its messages when it exits with another status than 0.
    @discardableResult
    static func openssl(_ arguments: [String]) throws -> Oracle.Result {
        let result = try Oracle.run("openssl", arguments)
        try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.errors)")
        return result
    }

    /// `curl` (status 2xx required) of `url` into `output`, POSTing the file `body` as `contentType`.
    static func curl(_ url: String, output: String, post body: String? = nil, contentType: String? = nil) throws {
        var arguments = ["-s", "-S", "-f", "--max-time", "30", "-o", output]
        if let contentType { arguments += ["-H", "Content-Type: " + contentType] }
        if let body { arguments += ["--data-binary", "@" + body] }
        let result = try Oracle.run("curl", arguments + [url])
        try #require(result.status == 0, "curl \(url): \(result.errors)")
    }

    /// An RFC 3161 query for a small file (`openssl ts -query -sha256 -cert`, with a nonce) and the
    /// TSA's reply to it from `url`: the paths of the query and the reply.
    static func timeStamp(_ url: String, in directory: String) throws -> (query: String, reply: String) {
        let data = directory + "/data.txt"
        try Data("a document to time-stamp\n".utf8).write(to: URL(fileURLWithPath: data))
        let query = directory + "/q.tsq"
        let reply = directory + "/r.tsr"
        try openssl(["ts", "-query", "-data", data, "-sha256", "-cert", "-out", query])
        try curl(url, output: reply, post: query, contentType: "application/timestamp-query")
        return (query, reply)
    }

    /// `openssl ocsp` for `certificate` issued by `issuer` at `url`, trusting the root; with `time`, the
    /// Animator answers as at that time (``Certomancer/fakeTimeHeader``).
    static func ocsp(
        _ certificate: String, issuer: String, url: String, root: String, time: String? = nil
    ) throws -> Oracle.Result {
        var arguments = [
            "ocsp", "-issuer", issuer, "-cert", certificate, "-url", url, "-CAfile", root, "-resp_text",
            "-timeout", "30",
        ]
        if let time { arguments += ["-header", "\(Certomancer.fakeTimeHeader)=\(time)"] }
        return try openssl(arguments)
    }

    @Test("the TSA grants a time stamp that openssl ts -verify accepts with the root as trust anchor")
    func timeStampVerifies() throws {
        let services = try Self.services()
        let directory = try TestPaths.temporaryDirectory("certomancer-tsa")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (query, reply) = try Self.timeStamp(services.tsaURL, in: directory)

        let text = try Self.openssl(["ts", "-reply", "-in", reply, "-text"]).output
        #expect(text.contains("Status: Granted."), "\(text)")
        #expect(text.contains("Hash Algorithm: sha256"))
        #expect(text.contains("TSA: DirName:/C=CH/O=Autograph Test/CN=Autograph Certomancer TSA"))
        let verified = try Self.openssl([
            "ts", "-verify", "-in", reply, "-queryfile", query, "-CAfile", services.rootCertificatePath,
            "-untrusted", try services.certificate("intermediate"),
        ])
        #expect(verified.output.contains("Verification: OK"))

        // Another document's query does not match the reply.
        let other = directory + "/other.txt"
        try Data("another document\n".utf8).write(to: URL(fileURLWithPath: other))
        let mismatch = try Oracle.run(
            "openssl",
            [
                "ts", "-verify", "-in", reply, "-data", other, "-CAfile", services.rootCertificatePath,
                "-untrusted", try services.certificate("intermediate"),
            ])
        #expect(mismatch.status != 0)
    }

    @Test("the TSA whose certificate lacks the critical timeStamping EKU grants stamps openssl ts -verify rejects")
    func timeStampWithoutEKU() throws {
        let services = try Self.services()
        let directory = try TestPaths.temporaryDirectory("certomancer-tsa-no-eku")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (query, reply) = try Self.timeStamp(services.tsaNoEKUURL, in: directory)

        #expect(try Self.openssl(["ts", "-reply", "-in", reply, "-text"]).output.contains("Status: Granted."))
        let verified = try Oracle.run(
            "openssl",
            [
                "ts", "-verify", "-in", reply, "-queryfile", query, "-CAfile", services.rootCertificatePath,
                "-untrusted", try services.certificate("intermediate"),
            ])
        #expect(verified.status != 0)
        #expect(verified.errors.contains("unsuitable certificate purpose"), "\(verified.errors)")
    }

    @Test("OCSP: signer good, signer-revoked revoked (keyCompromise), the intermediate good at the root's responder")
    func ocspStatus() throws {
        let services = try Self.services()
        let root = services.rootCertificatePath
        let intermediate = try services.certificate("intermediate")

        let good = try Self.ocsp(
            try services.certificate("signer"), issuer: intermediate, url: services.ocspURL(), root: root)
        #expect(good.output.contains(": good"), "\(good.output)")
        #expect(good.errors.contains("Response verify OK"))
        #expect(
            good.output.contains("CN=Autograph Certomancer Intermediate OCSP Responder"),
            "signed by the delegated responder, whose certificate the response carries")

        let revoked = try Self.ocsp(
            try services.certificate("signer-revoked"), issuer: intermediate, url: services.ocspURL(), root: root)
        #expect(revoked.output.contains(": revoked"), "\(revoked.output)")
        #expect(revoked.output.contains("Reason: keyCompromise"))
        #expect(revoked.output.contains("Revocation Time: Jun  1 00:00:00 2026 GMT"))
        #expect(revoked.errors.contains("Response verify OK"))

        // Asked as at a time before its revocation, it was good.
        let before = try Self.ocsp(
            try services.certificate("signer-revoked"), issuer: intermediate, url: services.ocspURL(), root: root,
            time: "2026-03-01T12:00:00+00:00")
        #expect(before.output.contains(": good"), "\(before.output)")
        #expect(before.output.contains("Produced At: Mar  1 12:00:00 2026 GMT"))

        let intermediateStatus = try Self.ocsp(intermediate, issuer: root, url: services.ocspURL("root"), root: root)
        #expect(intermediateStatus.output.contains(": good"), "\(intermediateStatus.output)")
        #expect(intermediateStatus.errors.contains("Response verify OK"))
    }

    @Test("the intermediate's CRL lists signer-revoked (keyCompromise) and verifies; the root's, the revoked CA alone")
    func crls() throws {
        let services = try Self.services()
        let directory = try TestPaths.temporaryDirectory("certomancer-crl")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = services.rootCertificatePath
        let intermediate = try services.certificate("intermediate")
        let chain = directory + "/chain.pem"
        try (try Data(contentsOf: URL(fileURLWithPath: intermediate)) + Data(contentsOf: URL(fileURLWithPath: root)))
            .write(to: URL(fileURLWithPath: chain))

        let crl = directory + "/intermediate.crl"
        try Self.curl(services.crlURL(), output: crl)
        let text = try Self.openssl(["crl", "-inform", "DER", "-in", crl, "-noout", "-text"]).output
        let serial = try Self.openssl(["x509", "-in", try services.certificate("signer-revoked"), "-noout", "-serial"])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(serial == "serial=03EA")
        #expect(text.contains("Issuer: C = CH, O = Autograph Test, CN = Autograph Certomancer Intermediate CA"))
        #expect(text.contains("Serial Number: 03EA"), "\(text)")
        #expect(text.contains("Key Compromise"))
        #expect(!text.contains("Serial Number: 03E9"), "signer is not revoked")
        #expect(text.contains("URI:" + services.crlURL()), "the issuing distribution point")
        let verified = try Self.openssl(["crl", "-inform", "DER", "-in", crl, "-CAfile", chain, "-noout"])
        #expect(verified.errors.contains("verify OK"), "\(verified.errors)")

        let rootCRL = directory + "/root.crl"
        try Self.curl(services.crlURL("root"), output: rootCRL)
        let rootText = try Self.openssl(["crl", "-inform", "DER", "-in", rootCRL, "-noout", "-text"]).output
        #expect(rootText.contains("Issuer: C = CH, O = Autograph Test, CN = Autograph Certomancer Root CA"))
        // The root revoked one CA, intermediate-revoked (serial 101, 0x65), and not the intermediate (0x64).
        #expect(rootText.contains("Serial Number: 65") && rootText.contains("CA Compromise"), "\(rootText)")
        #expect(!rootText.contains("Serial Number: 64"), "\(rootText)")
        let rootVerified = try Self.openssl(["crl", "-inform", "DER", "-in", rootCRL, "-CAfile", root, "-noout"])
        #expect(rootVerified.errors.contains("verify OK"))
    }

    @Test("the certificates name the Animator's own port in their AIA and CRL distribution points")
    func certificateURLs() throws {
        let services = try Self.services()
        let signer = try Self.openssl([
            "x509", "-in", try services.certificate("signer"), "-noout", "-enddate", "-ext",
            "keyUsage,authorityInfoAccess,crlDistributionPoints",
        ]).output
        #expect(signer.contains("OCSP - URI:" + services.ocspURL()), "\(signer)")
        #expect(signer.contains("URI:" + services.crlURL()))
        #expect(signer.contains("Digital Signature, Non Repudiation"))
        #expect(signer.contains("notAfter=Dec 31 23:59:59 2028 GMT"))
        let intermediate = try Self.openssl([
            "x509", "-in", try services.certificate("intermediate"), "-noout", "-ext",
            "authorityInfoAccess,crlDistributionPoints",
        ]).output
        #expect(intermediate.contains("OCSP - URI:" + services.ocspURL("root")), "\(intermediate)")
        #expect(intermediate.contains("URI:" + services.crlURL("root")))

        let tsa = try Self.openssl([
            "x509", "-in", try services.certificate("tsa"), "-noout", "-ext", "extendedKeyUsage",
        ])
        #expect(tsa.output.contains("X509v3 Extended Key Usage: critical\n    Time Stamping"), "\(tsa.output)")
        let noEKU = try Self.openssl([
            "x509", "-in", try services.certificate("tsa-no-eku"), "-noout", "-ext", "extendedKeyUsage",
        ])
        #expect(!noEKU.output.contains("Extended Key Usage"))
        // Every end-entity certificate chains to the root the Animator serves.
        for label in ["signer", "signer-revoked", "tsa", "tsa-no-eku", "intermediate-ocsp"] {
            let verified = try Self.openssl([
                "verify", "-purpose", "any", "-CAfile", services.rootCertificatePath, "-untrusted",
                try services.certificate("intermediate"), try services.certificate(label),
            ])
            #expect(verified.output.contains(": OK"), "\(label)")
        }
    }

    @Test("started with wholeSeconds, OCSP responses and time stamps carry no fraction of a second")
    func wholeSeconds() throws {
        let services = try Certomancer.shared(wholeSeconds: true)
        #expect(services.wholeSeconds)
        let response = try Self.ocsp(
            try services.certificate("signer"), issuer: try services.certificate("intermediate"),
            url: services.ocspURL(), root: services.rootCertificatePath)
        #expect(response.output.contains(": good"))
        let times = response.output.split(separator: "\n").filter {
            $0.contains("Produced At:") || $0.contains("This Update:") || $0.contains("Next Update:")
        }
        #expect(times.count >= 3, "\(response.output)")
        // "Dec  2 05:16:02 2026 GMT", not "Dec  2 05:16:02.8094 2026 GMT"
        #expect(times.allSatisfy { !$0.contains(".") }, "\(times)")

        let directory = try TestPaths.temporaryDirectory("certomancer-whole")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (_, reply) = try Self.timeStamp(services.tsaURL, in: directory)
        let stamp = try Self.openssl(["ts", "-reply", "-in", reply, "-text"]).output.split(separator: "\n")
            .first { $0.hasPrefix("Time stamp:") }
        let line = try #require(stamp)
        #expect(!line.contains("."), "\(line)")
    }

    @Test("stop() ends an Animator: its port no longer answers and its directory is gone")
    func stops() throws {
        let services = try Certomancer.start()
        #expect(services.commandLine.contains("--service-url-prefix"))
        #expect(try services.download("/autograph/certs/root/ca.cert.pem").starts(with: Data("-----BEGIN".utf8)))
        services.stop()
        #expect(throws: Certomancer.Failure.self) { try services.download("/autograph/certs/root/ca.cert.pem") }
        #expect(!FileManager.default.fileExists(atPath: services.directory))
        services.stop()
    }
}
