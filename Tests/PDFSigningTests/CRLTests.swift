import Foundation
import HTTPClient
import PDFCore
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFSigning

/// CRLs (RFC 5280 §5) from certomancer's Animator on loopback, fetched through the certificates'
/// distribution points and checked against `openssl crl`: what they list, their times, their
/// signature; and crafted ones (signed with the fixture keys) for what certomancer does not make.
@Suite("CRLs: distribution points, reading, checking and fetching, against certomancer and openssl crl")
struct CRLTests {
    static func services() throws -> Certomancer { try Certomancer.shared() }

    /// The certomancer certificate `label`.
    static func certificate(_ services: Certomancer, _ label: String) throws -> Certificate {
        let pem = try Data(contentsOf: URL(fileURLWithPath: try services.certificate(label)))
        return try #require(Certificate.certificates(pem: Array(pem)).first)
    }

    /// The fixture key of `label` (`Tests/Fixtures/certomancer/keys`).
    static func key(_ label: String) throws -> PrivateKey {
        let path = TestPaths.fixture("certomancer", "keys/\(label).key.pem")
        return try PrivateKey(pem: Array(try Data(contentsOf: URL(fileURLWithPath: path))), password: nil)
    }

    /// The current CRL of `issuer` ("intermediate", "root") as the Animator serves it.
    static func crlBytes(_ services: Certomancer, _ issuer: String, _ suffix: String = "latest.crl") throws -> [UInt8] {
        Array(try services.download("/\(Certomancer.architecture)/crls/\(issuer)/\(suffix)"))
    }

    static func write(_ bytes: [UInt8], _ name: String, in directory: String) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The intermediate and the root in one PEM file, for `openssl crl -CAfile`.
    static func chain(_ services: Certomancer, in directory: String) throws -> String {
        let intermediate = try Data(contentsOf: URL(fileURLWithPath: try services.certificate("intermediate")))
        let root = try Data(contentsOf: URL(fileURLWithPath: services.rootCertificatePath))
        return try write(Array(intermediate + root), "chain.pem", in: directory)
    }

    /// Whether `openssl crl -verify` accepts the DER CRL at `path` with the certificates of `caFile`.
    static func opensslVerifies(_ path: String, caFile: String) throws -> Bool {
        let result = try Oracle.run(
            "openssl", ["crl", "-inform", "DER", "-in", path, "-noout", "-verify", "-CAfile", caFile])
        return result.status == 0 && result.errors.contains("verify OK")
    }

    /// `openssl crl -noout ARGUMENTS` of the DER CRL at `path`; the test fails unless it succeeds.
    static func openssl(_ path: String, _ arguments: [String]) throws -> String {
        let result = try Oracle.run("openssl", ["crl", "-inform", "DER", "-in", path, "-noout"] + arguments)
        try #require(result.status == 0, "openssl crl \(arguments): \(result.errors)")
        return result.output
    }

    /// A transport that keeps the requests it sends, answering with `reply` or, without one, libcurl.
    final class Transport: HTTPTransport {
        let requests = Mutex<[HTTPClientRequest]>([])
        let reply: (@Sendable (HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse)?

        init(_ reply: (@Sendable (HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse)? = nil) {
            self.reply = reply
        }

        var sent: [HTTPClientRequest] { requests.withLock { $0 } }

        func send(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
            requests.withLock { $0.append(request) }
            guard let reply else { return try await CurlTransport().send(request) }
            return try reply(request)
        }
    }

    // MARK: Crafting CRLs

    /// An `Extension` (RFC 5280 §4.1) with a DER value.
    static func extensionDER(_ identifier: ObjectIdentifier, critical: Bool = false, _ value: [UInt8]) -> [UInt8] {
        var writer = DERWriter()
        writer.sequence { field in
            field.objectIdentifier(identifier)
            if critical { field.boolean(true) }
            field.octetString(value)
        }
        return writer.bytes
    }

    /// A v2 CRL of `issuer` revoking `entries`, signed with `key` as `scheme` (its default one
    /// unless given) with SHA-256.
    static func makeCRL(
        issuer: Certificate, key: PrivateKey, thisUpdate: Int, nextUpdate: Int?,
        entries: [(serial: [UInt8], time: Int, extensions: [[UInt8]])] = [], extensions: [[UInt8]] = [],
        scheme: SignatureScheme? = nil, generalizedTime: Bool = false
    ) throws -> [UInt8] {
        let scheme = scheme ?? key.defaultScheme
        let algorithm = scheme.algorithmIdentifier(digest: .sha256, rsaNamesDigest: true)
        func time(_ writer: inout DERWriter, _ seconds: Int) {
            if generalizedTime { writer.generalizedTime(seconds) } else { writer.utcTime(seconds) }
        }
        var tbs = DERWriter()
        tbs.sequence { body in
            body.integer(1)
            algorithm.write(to: &body)
            body.appendEncoded(issuer.subjectDER)
            time(&body, thisUpdate)
            if let nextUpdate { time(&body, nextUpdate) }
            if !entries.isEmpty {
                body.sequence { list in
                    for entry in entries {
                        list.sequence { item in
                            item.append(tag: .integer, content: entry.serial)
                            time(&item, entry.time)
                            if !entry.extensions.isEmpty {
                                item.sequence { for field in entry.extensions { $0.appendEncoded(field) } }
                            }
                        }
                    }
                }
            }
            if !extensions.isEmpty {
                body.explicit(0) { explicit in
                    explicit.sequence { for field in extensions { $0.appendEncoded(field) } }
                }
            }
        }
        let digest = try DigestAlgorithm.sha256.hash(tbs.bytes)
        let signature = try key.sign(digest: digest, digestAlgorithm: .sha256, scheme: scheme)
        var writer = DERWriter()
        writer.sequence { list in
            list.appendEncoded(tbs.bytes)
            algorithm.write(to: &list)
            list.bitString(signature)
        }
        return writer.bytes
    }

    /// A reasonCode entry extension (RFC 5280 §5.3.1).
    static func reasonExtension(_ reason: RevocationReason) -> [UInt8] {
        extensionDER(.crlReasonCode, [0x0A, 0x01, UInt8(reason.rawValue)])
    }

    /// An issuingDistributionPoint extension (RFC 5280 §5.2.5, critical) naming `url`, with the
    /// `[number]` fields of `flags` present.
    static func issuingDistributionPoint(url: String?, flags: [UInt32] = []) -> [UInt8] {
        var value = DERWriter()
        value.sequence { point in
            if let url {
                point.explicit(0) { name in
                    name.constructed(.context(0)) {
                        $0.append(tag: .context(6, constructed: false), content: Array(url.utf8))
                    }
                }
            }
            for flag in flags {  // onlySomeReasons [3] is a BIT STRING (cACompromise), the others BOOLEANs
                point.append(tag: .context(flag, constructed: false), content: flag == 3 ? [0x05, 0x20] : [0xFF])
            }
        }
        return extensionDER(.issuingDistributionPoint, critical: true, value.bytes)
    }

    // MARK: Tests

    @Test("the signer names the intermediate's CRL, the intermediate the root's, the root none")
    func distributionPoints() throws {
        let services = try Self.services()
        #expect(try Self.certificate(services, "signer").crlDistributionPointURLs == [services.crlURL()])
        #expect(try Self.certificate(services, "intermediate").crlDistributionPointURLs == [services.crlURL("root")])
        #expect(try Self.certificate(services, "root").crlDistributionPointURLs.isEmpty)
        #expect(try Self.certificate(services, "tsa").crlDistributionPointURLs == [services.crlURL()])
    }

    @Test("through the signer's distribution point: the intermediate's CRL lists signer-revoked (keyCompromise) only")
    func intermediateCRL() async throws {
        let services = try Self.services()
        let signer = try Self.certificate(services, "signer")
        let revoked = try Self.certificate(services, "signer-revoked")
        let intermediate = try Self.certificate(services, "intermediate")
        let transport = Transport()
        let crl = try await CRLClient(transport: transport).fetch(for: signer, issuer: intermediate)

        let request = try #require(transport.sent.first)
        #expect(transport.sent.count == 1)
        #expect(request.method == .get && request.url == services.crlURL())
        #expect(request.maxResponseSize == 16 * 1024 * 1024 && request.maxRedirects == 0)
        #expect(request.headers.contains { $0.name == "Accept" && $0.value == "application/pkix-crl" })

        #expect(revoked.serialNumber == "03EA")
        #expect(crl.entries.map(\.serialNumber) == ["03EA"])
        let entry = try #require(crl.entry(for: revoked))
        #expect(entry.time == DERTime.seconds(year: 2026, month: 6, day: 1))
        #expect(entry.reason == .keyCompromise)
        #expect(crl.entry(for: signer) == nil)
        #expect(crl.entry(for: intermediate) == nil)
        #expect(!crl.isDelta && crl.crlNumber != nil)
        #expect(crl.issuerDER == intermediate.subjectDER)
        let now = PDFDate.now().seconds
        #expect(crl.problem(issuer: intermediate, at: now) == nil)
        #expect(crl.problem(for: revoked, issuer: intermediate, at: now) == nil)
        #expect(crl.problem(for: try Self.certificate(services, "tsa"), issuer: intermediate, at: now) == nil)
    }

    @Test("the root's CRL, from the intermediate's distribution point, lists only the revoked CA and is the root's")
    func rootCRL() async throws {
        let services = try Self.services()
        let root = try Self.certificate(services, "root")
        let intermediate = try Self.certificate(services, "intermediate")
        let crl = try await CRLClient().fetch(for: intermediate, issuer: root)
        #expect(crl.entries.map(\.serialNumber) == ["65"] && crl.entries.first?.reason == .caCompromise)
        #expect(crl.entry(for: intermediate) == nil)
        #expect(crl.signatureProblem(issuer: root) == nil)
        #expect(crl.signatureProblem(issuer: intermediate) != nil)
        #expect(crl.problem(issuer: root, at: nil) == nil)
        // The same CRL by its URL, and as PEM (`latest.crl.pem`).
        let byURL = try await CRLClient().fetch(services.crlURL("root"), issuer: root)
        let pem = try await CRLClient().fetch(services.crlURL("root") + ".pem", issuer: root)
        #expect(byURL.issuerDER == root.subjectDER && pem.thisUpdate == byURL.thisUpdate)
        #expect(pem.entries == byURL.entries && pem.nextUpdate == byURL.nextUpdate)
    }

    @Test("openssl crl reads the same times, CRL number and serials, and verifies the signature as we do")
    func opensslAgrees() throws {
        let services = try Self.services()
        let directory = try TestPaths.temporaryDirectory("crl-oracle")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let chain = try Self.chain(services, in: directory)
        for label in ["intermediate", "root"] {
            let issuer = try Self.certificate(services, label)
            let bytes = try Self.crlBytes(services, label)
            let path = try Self.write(bytes, label + ".crl", in: directory)
            let crl = try CertificateRevocationList(der: bytes)

            let times = try Self.openssl(path, ["-lastupdate", "-nextupdate", "-crlnumber", "-dateopt", "iso_8601"])
            let lines = Set(times.split(separator: "\n").map(String.init))
            let thisUpdate = CertificateRevocationList.text(crl.thisUpdate).replacingOccurrences(of: "T", with: " ")
            let nextUpdate = try #require(crl.nextUpdate.map(CertificateRevocationList.text))
                .replacingOccurrences(of: "T", with: " ")
            #expect(lines.contains("lastUpdate=" + thisUpdate), "\(label): \(times)")
            #expect(lines.contains("nextUpdate=" + nextUpdate), "\(label): \(times)")
            #expect(lines.contains("crlNumber=0x" + (crl.crlNumber ?? "")), "\(label): \(times)")

            let text = try Self.openssl(path, ["-text"])
            let serials = text.split(separator: "\n").compactMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("Serial Number: ") ? String(trimmed.dropFirst("Serial Number: ".count)) : nil
            }
            #expect(serials == crl.entries.map(\.serialNumber), "\(label)")
            #expect(text.contains("Key Compromise") == crl.entries.contains { $0.reason == .keyCompromise })

            let ours = crl.problem(issuer: issuer, at: nil)
            #expect(ours == nil, "\(label): \(ours ?? "")")
            #expect(try Self.opensslVerifies(path, caFile: chain) == (ours == nil), "\(label)")
        }
    }

    @Test("a flipped byte in the signature or in tbsCertList: a problem for us, a failure for openssl")
    func tampering() throws {
        let services = try Self.services()
        let directory = try TestPaths.temporaryDirectory("crl-tamper")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let chain = try Self.chain(services, in: directory)
        let intermediate = try Self.certificate(services, "intermediate")
        let root = try Self.certificate(services, "root")
        for (label, issuer) in [("intermediate", intermediate), ("root", root)] {
            let bytes = try Self.crlBytes(services, label)
            let crl = try CertificateRevocationList(der: bytes)
            #expect(crl.problem(issuer: issuer, at: nil) == nil)
            // The last byte of the signature, then a digit of thisUpdate (a valid time still).
            var signature = bytes
            signature[signature.count - 1] ^= 0x01
            var tbs = bytes
            var reader = DERReader(bytes)
            var list = try reader.readNode(.sequence).contentReader()
            var fields = try list.readNode(.sequence).contentReader()
            if fields.peekTag() == .integer { _ = try fields.readNode() }  // version
            _ = try fields.readNode(.sequence)  // signature
            _ = try fields.readNode(.sequence)  // issuer
            let thisUpdate = try fields.readNode()
            tbs[thisUpdate.content.endIndex - 2] ^= 0x01  // the seconds' last digit, before the Z
            for (kind, tampered) in [("signature", signature), ("tbsCertList", tbs)] {
                let changed = try CertificateRevocationList(der: tampered)
                let problem = try #require(changed.problem(issuer: issuer, at: nil), "\(label) \(kind)")
                #expect(problem.contains("signature does not verify"), "\(label) \(kind): \(problem)")
                let path = try Self.write(tampered, "\(label)-\(kind).crl", in: directory)
                #expect(try !Self.opensslVerifies(path, caFile: chain), "\(label) \(kind)")
            }
            #expect(try CertificateRevocationList(der: tbs).thisUpdate != crl.thisUpdate)
        }
    }

    @Test("checked against another issuer, signed by another key, or issued by a certificate without cRLSign")
    func wrongIssuer() throws {
        let services = try Self.services()
        let intermediate = try Self.certificate(services, "intermediate")
        let root = try Self.certificate(services, "root")
        let signer = try Self.certificate(services, "signer")
        let crl = try CertificateRevocationList(der: try Self.crlBytes(services, "intermediate"))
        for wrong in [root, signer] {
            let problem = try #require(crl.problem(issuer: wrong, at: nil))
            #expect(problem.contains("issuer is not"), "\(problem)")
        }
        // The intermediate's CRL about the signer, checked with the root as issuer.
        #expect(crl.problem(for: signer, issuer: root, at: nil) != nil)
        // The root's CRL does not speak for the signer.
        let rootCRL = try CertificateRevocationList(der: try Self.crlBytes(services, "root"))
        #expect(try #require(rootCRL.problem(for: signer, issuer: root, at: nil)).contains("not issued by"))

        // The intermediate's name, another key (signer-revoked's P-256 key).
        let now = PDFDate.now().seconds
        let forged = try CertificateRevocationList(
            der: Self.makeCRL(
                issuer: intermediate, key: try Self.key("signer-revoked"), thisUpdate: now - 60, nextUpdate: now + 3600)
        )
        #expect(try #require(forged.problem(issuer: intermediate, at: now)).contains("signature does not verify"))

        // The TSA signs its own CRL, but its key usage is digitalSignature alone.
        let tsa = try Self.certificate(services, "tsa")
        let byTSA = try CertificateRevocationList(
            der: Self.makeCRL(issuer: tsa, key: try Self.key("tsa"), thisUpdate: now - 60, nextUpdate: now + 3600))
        #expect(byTSA.signatureProblem(issuer: tsa) == nil)
        #expect(try #require(byTSA.problem(issuer: tsa, at: now)).contains("cRLSign"))
    }

    @Test("a time after nextUpdate is stale, before thisUpdate too early; five minutes of skew either way")
    func times() async throws {
        let services = try Self.services()
        let intermediate = try Self.certificate(services, "intermediate")
        let signer = try Self.certificate(services, "signer")
        let crl = try CertificateRevocationList(der: try Self.crlBytes(services, "intermediate"))
        let nextUpdate = try #require(crl.nextUpdate)
        #expect(crl.problem(issuer: intermediate, at: nextUpdate + 300) == nil)
        #expect(try #require(crl.problem(issuer: intermediate, at: nextUpdate + 301)).contains("stale"))
        #expect(crl.problem(issuer: intermediate, at: crl.thisUpdate - 300) == nil)
        #expect(try #require(crl.problem(issuer: intermediate, at: crl.thisUpdate - 301)).contains("issued at"))
        #expect(crl.problem(issuer: intermediate, at: nil) == nil)

        // A client whose clock is a day past nextUpdate refuses what it fetches.
        let late = CRLClient(transport: Transport(), now: { nextUpdate + 86_400 })
        let error = await #expect(throws: SigningError.self) { try await late.fetch(for: signer, issuer: intermediate) }
        #expect(
            error?.code == .revocationCheckFailed && error?.message.contains("stale") == true, "\(error?.message ?? "")"
        )
    }

    @Test("a delta CRL (openssl crl -gendelta, or ours with a deltaCRLIndicator) is refused, before anything else")
    func deltaCRL() throws {
        let services = try Self.services()
        let directory = try TestPaths.temporaryDirectory("crl-delta")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let intermediate = try Self.certificate(services, "intermediate")
        let bytes = try Self.crlBytes(services, "intermediate")
        let crl = try CertificateRevocationList(der: bytes)
        let hexNumber = try #require(crl.crlNumber)
        let number = try #require(Int(hexNumber, radix: 16))
        let base = try Self.crlBytes(services, "intermediate", "archive-\(number - 1).crl")
        let basePath = try Self.write(base, "base.crl", in: directory)
        let newPath = try Self.write(bytes, "new.crl", in: directory)
        let deltaPath = directory + "/delta.crl"
        let made = try Oracle.run(
            "openssl",
            [
                "crl", "-inform", "DER", "-in", basePath, "-gendelta", newPath, "-key",
                TestPaths.fixture("certomancer", "keys/intermediate.key.pem"), "-sha256", "-outform", "DER", "-out",
                deltaPath,
            ])
        try #require(made.status == 0, "\(made.errors)")
        let chain = try Self.chain(services, in: directory)
        #expect(try Self.opensslVerifies(deltaPath, caFile: chain))
        let delta = try CertificateRevocationList(der: Array(try Data(contentsOf: URL(fileURLWithPath: deltaPath))))
        #expect(delta.isDelta && delta.signatureProblem(issuer: intermediate) == nil)
        #expect(delta.problem(issuer: intermediate, at: nil)?.hasPrefix("delta CRLs are not used") == true)

        // The real CRL with a deltaCRLIndicator added and its signature left as it was: the delta
        // problem is named first.
        var reader = DERReader(bytes)
        var list = try reader.readNode(.sequence).contentReader()
        let tbsNode = try list.readNode(.sequence)
        let rest = Array(list.remainingBytes)
        var tbsReader = try tbsNode.contentReader()
        var tbs = DERWriter()
        var deltaExtension = DERWriter()
        deltaExtension.integer(number - 1)
        tbs.sequence { body in
            while let node = try? tbsReader.readNode() {
                guard node.tag == .context(0), var explicit = try? node.contentReader(),
                    let extensions = try? explicit.readNode(.sequence)
                else {
                    body.appendEncoded(node.encoded)
                    continue
                }
                body.explicit(0) { wrapper in
                    wrapper.sequence { list in
                        list.appendEncoded(Self.extensionDER(.deltaCRLIndicator, critical: true, deltaExtension.bytes))
                        list.appendEncoded(extensions.content)
                    }
                }
            }
        }
        var writer = DERWriter()
        writer.sequence { $0.appendEncoded(tbs.bytes + rest) }
        let crafted = try CertificateRevocationList(der: writer.bytes)
        #expect(crafted.isDelta && crafted.entries == crl.entries)
        #expect(crafted.signatureProblem(issuer: intermediate) != nil)
        #expect(crafted.problem(issuer: intermediate, at: nil)?.hasPrefix("delta CRLs are not used") == true)
    }

    @Test("critical extensions we do not process, an indirect or partial CRL, and a CRL out of the certificate's scope")
    func extensionsAndScope() throws {
        let services = try Self.services()
        let directory = try TestPaths.temporaryDirectory("crl-extensions")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let chain = try Self.chain(services, in: directory)
        let intermediate = try Self.certificate(services, "intermediate")
        let signer = try Self.certificate(services, "signer")
        let key = try Self.key("intermediate")
        let now = PDFDate.now().seconds
        let unknown: ObjectIdentifier = "1.3.6.1.4.1.55555.1"
        func crl(
            _ extensions: [[UInt8]], entryExtensions: [[UInt8]] = [], _ name: String
        ) throws -> CertificateRevocationList {
            let bytes = try Self.makeCRL(
                issuer: intermediate, key: key, thisUpdate: now - 60, nextUpdate: now + 3600,
                entries: [([0x03, 0xEA], now - 120, entryExtensions + [Self.reasonExtension(.superseded)])],
                extensions: extensions)
            // Every crafted CRL is well signed: openssl verifies it, and so do we.
            let path = try Self.write(bytes, name + ".crl", in: directory)
            #expect(try Self.opensslVerifies(path, caFile: chain), "\(name)")
            let parsed = try CertificateRevocationList(der: bytes)
            #expect(parsed.signatureProblem(issuer: intermediate) == nil, "\(name)")
            return parsed
        }
        let plain = try crl([Self.extensionDER(unknown, [0x05, 0x00])], "non-critical")
        #expect(plain.problem(for: signer, issuer: intermediate, at: now) == nil)
        #expect(plain.entries.first?.reason == .superseded)

        let critical = try crl([Self.extensionDER(unknown, critical: true, [0x05, 0x00])], "critical")
        #expect(
            try #require(critical.problem(issuer: intermediate, at: now)).contains("critical CRL extension \(unknown)"))
        let criticalEntry = try crl(
            [], entryExtensions: [Self.extensionDER(unknown, critical: true, [0x05, 0x00])], "critical-entry")
        #expect(try #require(criticalEntry.problem(issuer: intermediate, at: now)).contains("entry extension"))

        let url = services.crlURL()
        let matching = try crl([Self.issuingDistributionPoint(url: url, flags: [1])], "users-only")
        #expect(matching.problem(for: signer, issuer: intermediate, at: now) == nil)
        let elsewhere = try crl([Self.issuingDistributionPoint(url: url + "?other")], "elsewhere")
        #expect(elsewhere.problem(issuer: intermediate, at: now) == nil)
        #expect(
            try #require(elsewhere.problem(for: signer, issuer: intermediate, at: now)).contains("distribution point"))
        let caOnly = try crl([Self.issuingDistributionPoint(url: url, flags: [2])], "ca-only")
        #expect(
            try #require(caOnly.problem(for: signer, issuer: intermediate, at: now)).contains("CA certificates only"))
        let indirect = try crl([Self.issuingDistributionPoint(url: nil, flags: [4])], "indirect")
        #expect(try #require(indirect.problem(issuer: intermediate, at: now)).contains("indirect"))
        let partial = try crl([Self.issuingDistributionPoint(url: url, flags: [3])], "partial")
        #expect(try #require(partial.problem(issuer: intermediate, at: now)).contains("only some"))
        let attributes = try crl([Self.issuingDistributionPoint(url: nil, flags: [5])], "attributes")
        #expect(try #require(attributes.problem(issuer: intermediate, at: now)).contains("attribute certificates"))
    }

    @Test("RSA PKCS#1 v1.5 and RSA-PSS signatures, UTCTime and GeneralizedTime, serials with a redundant sign octet")
    func craftedForms() throws {
        let services = try Self.services()
        let directory = try TestPaths.temporaryDirectory("crl-forms")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let root = try Self.certificate(services, "root")
        let intermediate = try Self.certificate(services, "intermediate")
        let key = try Self.key("root")
        let time = DERTime.seconds(year: 2026, month: 7, day: 1)
        for scheme in [SignatureScheme.rsaPKCS1v15, .rsaPSS] {
            for generalizedTime in [false, true] {
                let bytes = try Self.makeCRL(
                    issuer: root, key: key, thisUpdate: time, nextUpdate: nil,
                    entries: [([0x64], time - 86_400, [Self.reasonExtension(.caCompromise)])], scheme: scheme,
                    generalizedTime: generalizedTime)
                let crl = try CertificateRevocationList(der: bytes)
                let label = "\(scheme) generalizedTime \(generalizedTime)"
                #expect(crl.problem(issuer: root, at: time + 10 * 365 * 86_400) == nil, "\(label)")
                #expect(crl.thisUpdate == time && crl.nextUpdate == nil, "\(label)")
                #expect(crl.entry(for: intermediate)?.reason == .caCompromise, "\(label)")
                #expect(crl.entries.map(\.serialNumber) == ["64"])
                let path = try Self.write(bytes, "root-\(scheme)-\(generalizedTime).crl", in: directory)
                #expect(try Self.opensslVerifies(path, caFile: services.rootCertificatePath), "\(label)")
            }
        }
        // 00 64 is the intermediate's serial 100 (64) with a redundant sign octet (not DER, which
        // OpenSSL refuses to read); FF 9C is 9C, -100; 00 9C is +156, whose 00 is needed.
        let padded = try CertificateRevocationList(
            der: Self.makeCRL(
                issuer: root, key: key, thisUpdate: time, nextUpdate: nil,
                entries: [([0x00, 0x64], time, []), ([0xFF, 0x9C], time, []), ([0x00, 0x9C], time, [])]))
        #expect(padded.entries.map(\.serial) == [[0x64], [0x9C], [0x00, 0x9C]])
        #expect(padded.entry(for: intermediate) != nil && padded.entry(for: root) == nil)
        #expect(padded.entries.first?.reason == nil)
    }

    @Test(
        "every prefix, every flipped byte and random garbage: read or thrown, never a crash; no change goes unnoticed")
    func garbage() throws {
        let services = try Self.services()
        let intermediate = try Self.certificate(services, "intermediate")
        let bytes = try Self.crlBytes(services, "intermediate")
        for count in 0..<bytes.count {
            #expect(throws: SigningError.self) { try CertificateRevocationList(der: Array(bytes.prefix(count))) }
        }
        #expect(throws: SigningError.self) { try CertificateRevocationList(der: bytes + [0x00]) }
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0xFF
            do {
                let crl = try CertificateRevocationList(der: changed)
                #expect(crl.problem(issuer: intermediate, at: nil) != nil, "byte \(index) changed unnoticed")
            } catch {
                #expect(error.code == .malformedData)
            }
        }
        var state: UInt64 = 0x5EED_C41  // xorshift64: the same garbage on every run
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        for _ in 0..<300 {
            let length = Int(next() % 300)
            var random = (0..<length).map { _ in UInt8(truncatingIfNeeded: next()) }
            if !random.isEmpty && next() % 2 == 0 { random[0] = 0x30 }
            _ = try? CertificateRevocationList(der: random)
        }
        let indefinite = Array(repeating: [UInt8]([0x30, 0x80]), count: 200).flatMap { $0 }  // BER, not DER
        #expect(throws: SigningError.self) { try CertificateRevocationList(der: indefinite) }
        #expect(throws: SigningError.self) { try CertificateRevocationList(der: [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]) }
        for text in ["", "-----BEGIN X509 CRL-----\n!!!\n-----END X509 CRL-----\n", "-----BEGIN X509 CRL-----\nMAA="] {
            #expect(throws: SigningError.self) { try CertificateRevocationList(pem: Array(text.utf8)) }
        }
    }

    @Test("a server's 404, garbage, PEM or silence; a certificate without a distribution point; a URL not http")
    func clientAnswers() async throws {
        let services = try Self.services()
        let signer = try Self.certificate(services, "signer")
        let intermediate = try Self.certificate(services, "intermediate")
        let root = try Self.certificate(services, "root")
        let der = try Self.crlBytes(services, "intermediate")
        let pem = try Self.crlBytes(services, "intermediate", "latest.crl.pem")
        #expect(pem.starts(with: Array("-----BEGIN X509 CRL-----".utf8)))

        let fromPEM = try await CRLClient(
            transport: Transport { _ throws(HTTPClientError) in
                HTTPClientResponse(status: 200, body: Array("\r\n".utf8) + pem)
            }
        ).fetch(for: signer, issuer: intermediate)
        #expect(fromPEM.entries.map(\.serialNumber) == ["03EA"])

        let truncated = Array(der.dropLast())
        let answers: [(String, @Sendable (HTTPClientRequest) throws(HTTPClientError) -> HTTPClientResponse)] = [
            ("answered HTTP 404", { _ throws(HTTPClientError) in HTTPClientResponse(status: 404, body: der) }),
            ("not a CRL", { _ throws(HTTPClientError) in HTTPClientResponse(status: 200, body: Array("<html>".utf8)) }),
            ("is not a CRL", { _ throws(HTTPClientError) in HTTPClientResponse(status: 200, body: truncated) }),
            ("cannot be reached", { request throws(HTTPClientError) in throw HTTPClientError(.tooLarge, request.url) }),
        ]
        for (expected, answer) in answers {
            let transport = Transport(answer)
            let error = await #expect(throws: SigningError.self) {
                try await CRLClient(transport: transport).fetch(for: signer, issuer: intermediate)
            }
            #expect(error?.code == .revocationCheckFailed && error?.signoCode == -129)
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
            #expect(transport.sent.count == 1)
        }

        // The intermediate's CRL offered as the root's.
        let wrong = Transport { _ throws(HTTPClientError) in HTTPClientResponse(status: 200, body: der) }
        let error = await #expect(throws: SigningError.self) {
            try await CRLClient(transport: wrong).fetch(for: intermediate, issuer: root)
        }
        #expect(error?.message.contains("not usable") == true, "\(error?.message ?? "")")

        let none = Transport()
        let noPoint = await #expect(throws: SigningError.self) {
            try await CRLClient(transport: none).fetch(for: root, issuer: root)
        }
        #expect(noPoint?.code == .revocationCheckFailed && none.sent.isEmpty)
        let ftp = await #expect(throws: SigningError.self) {
            try await CRLClient(transport: none).fetch("ftp://127.0.0.1/x.crl", issuer: root)
        }
        #expect(ftp?.code == .invalidArgument && none.sent.isEmpty)
    }
}
