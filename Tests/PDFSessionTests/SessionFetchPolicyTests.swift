import Foundation
import PDFCore
import PDFForms
import PDFSigning
import PDFTestSupport
import Testing

@testable import PDFSession

/// A session with a `revocationFetchPolicy` (as `autograph serve` configures it) completing what its
/// own seal signed: the seal's chain is an anchor, so its statuses are fetched — from certomancer
/// on loopback only once that destination is allowed.
@Suite struct SessionFetchPolicyTests {
    static func complete(allowing destinations: [String]) async throws -> [String] {
        let services = try Certomancer.shared()
        var configuration = try SessionTimeStampTests.configuration(services, tsa: services.tsaURL)
        var policy = RevocationFetchPolicy()
        for destination in destinations { try policy.allow(destination) }
        configuration.revocationFetchPolicy = policy
        let (controller, _) = try SessionFixtures.controller()
        let session = try await controller.open(
            pdf: SessionFixtures.form(), documentID: "fetch-policy", signatureConfiguration: configuration)
        try await session.setValue(.text("Ada Lovelace"), forField: "name")
        try await session.acceptDocument()
        try await session.confirmSignature()
        return try await session.completeDocument()
    }

    @Test("the seal's own chain is an anchor: its status is fetched where the policy allows, not from loopback")
    func sealChain() async throws {
        let services = try Certomancer.shared()
        let port = try #require(URLComponents(string: services.baseURL)?.port)
        // Loopback allowed: every status comes (the authority's certificate, too, was issued by the
        // seal's intermediate), and the root from the intermediate's caIssuers address.
        let allowed = try await Self.complete(allowing: ["127.0.0.1:\(port)"])
        #expect(allowed.isEmpty, "\(allowed)")
        // Not allowed: the same certificates are asked, and the policy refuses the destination.
        let refused = try await Self.complete(allowing: [])
        #expect(refused.contains { $0.contains("Signer") && $0.contains("is not fetched from here") }, "\(refused)")
    }
}
