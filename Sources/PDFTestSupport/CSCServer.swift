public import Foundation

/// A CSC API (remote signing) server on 127.0.0.1 for the tests, with the keys and certificates of
/// the certomancer PKI (`Tests/Fixtures/certomancer`), its credentials named
/// `autograph/<certificate label>`:
///
/// - ``dummy(scal:services:)``: certomancer-csc-dummy (PyPI, by pyHanko's author), a third-party server that
///   speaks v1 only, authenticates nobody (`authType external`) and, at SCAL 2, binds each SAD to
///   the hashes authorized (`Tests/Scripts/csc_dummy_server.py` starts its application on a port
///   of its own);
/// - ``specV2(services:)``: `Tests/Scripts/csc_v2_server.py`, a test server written for these tests that
///   follows the CSC v2 specification (OAuth 2.0 client credentials and authorization code with
///   PKCE, explicit PIN and OTP): no installable server offers v2 here.
///
/// Each appends one line per request to ``log`` (its method, path and body size), so a test counts
/// what a client sent from the server's side.
public final class CSCServer: Sendable {
    /// The OAuth client of ``specV2(services:)``.
    public static let clientID = "autograph-tests"
    /// Its secret.
    public static let clientSecret = "client-secret-for-tests"
    /// The PIN of the explicit credential `autograph/signer` of ``specV2(services:)``.
    public static let pin = "1234"
    /// Its one-time password (fixed: a test server).
    public static let otp = "123456"

    /// `http://127.0.0.1:PORT`: what comes before `/csc/v1` or `/csc/v2`.
    public let baseURL: String
    /// The request log.
    public let log: String
    private let server: LoopbackServer

    private init(server: LoopbackServer, log: String) {
        self.server = server
        self.baseURL = server.base
        self.log = log
    }

    /// certomancer-csc-dummy at `scal` (2: hashes bound to the SAD), its certificates naming the
    /// services of `services` (their OCSP responder, CRL and issuer URLs): the certificates that
    /// Animator makes, so validators that check revocation (pdfsig) reach it.
    /// - Throws: `Oracle.MissingProgram` when it is not installed (`scripts/install-deps test`).
    public static func dummy(scal: Int = 2, services: Certomancer) async throws -> CSCServer {
        guard isDummyInstalled else { throw Oracle.MissingProgram(name: "certomancer-csc-dummy") }
        let log = try TestPaths.temporaryDirectory("csc-dummy") + "/requests.log"
        let server = try await LoopbackServer.start(
            "csc_dummy_server.py",
            [TestPaths.fixture("certomancer", "certomancer.yml"), String(scal), log, services.baseURL])
        return CSCServer(server: server, log: log)
    }

    /// The CSC v2 test server, its certificates naming the services of `services`; `listing` (when
    /// not empty) the credentials `credentials/list` names; while `stallFile` exists,
    /// `signatures/signHash` does not answer.
    public static func specV2(
        services: Certomancer, listing: [String] = [], stallFile: String? = nil
    ) async throws -> CSCServer {
        let log = try TestPaths.temporaryDirectory("csc-v2") + "/requests.log"
        let server = try await LoopbackServer.start(
            "csc_v2_server.py",
            [
                "--config", TestPaths.fixture("certomancer", "certomancer.yml"), "--client-id", clientID,
                "--client-secret", clientSecret, "--pin", pin, "--otp", otp, "--log", log, "--url-prefix",
                services.baseURL,
            ] + (stallFile.map { ["--stall-file", $0] } ?? []) + (listing.isEmpty ? [] : ["--list"] + listing))
        return CSCServer(server: server, log: log)
    }

    /// Whether certomancer-csc-dummy (and so aiohttp and certomancer) can be imported.
    public static let isDummyInstalled: Bool = {
        guard let python = Oracle.which("python3") else { return false }
        return (try? Oracle.run(python, ["-c", "import csc_dummy.csc_dummy_server"]).status) == 0
    }()

    /// The requests logged so far: method, path and body size.
    public func requests() -> [(method: String, path: String, bytes: Int)] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 3, let bytes = Int(fields[2]) else { return nil }
            return (String(fields[0]), String(fields[1]), bytes)
        }
    }

    /// Stops the server.
    public func stop() { server.stop() }
}
