package import HTTPClient

/// What a service fetches for the documents others give it: the OCSP responders, CRLs and
/// issuers' certificates (caIssuers) that certificates name are addresses an uploader chose, so a
/// server that fetched them all would make requests for anyone (server-side request forgery).
///
/// With this policy (``OnlineRevocationSource/init(policy:)``) nothing is fetched for a
/// certificate unless its path leads to one of ``trustAnchors`` — each certificate signed by the
/// next, up to an anchor —, and what is fetched goes only to public addresses on
/// ``allowedPorts`` or to a destination ``allow(_:)`` added: never to loopback, private,
/// link-local, unspecified, multicast, broadcast or documentation addresses (or IPv6 forms of
/// such IPv4 addresses), with no proxy, no redirect, 10 s at most an exchange. The name is resolved
/// once and the address checked is the one connected to. A person's own command (`autograph
/// extend`, `verify --revocation online`) uses no policy and fetches what the document names.
public struct RevocationFetchPolicy: Sendable {
    /// The certificates a path must lead to before anything it names is fetched: the trust roots
    /// the service is configured with and its seal's own chain.
    public var trustAnchors: [Certificate]
    /// The ports public addresses are reached on: 80 and 443.
    public var allowedPorts: Set<Int> = [80, 443]
    /// The destinations ``allow(_:)`` added, as written (`ocsp.internal`, `127.0.0.1:8080`,
    /// `10.20.0.0/16`).
    public var allowedDestinations: [String] { destinations.map(\.description) }
    private var destinations: [FetchPolicy.Destination] = []

    /// A policy fetching only for paths that lead to `trustAnchors`, on public addresses.
    public init(trustAnchors: [Certificate] = []) {
        self.trustAnchors = trustAnchors
    }

    /// Allows `destination` besides public addresses: `HOST[:PORT]` (the name, on PORT or the
    /// allowed ports, whatever address it resolves to), `ADDRESS[:PORT]` (an IPv6 address in
    /// brackets when a port follows) or a network `ADDRESS/PREFIX` (CIDR, on the allowed ports).
    /// - Throws: `.invalidArgument` when it is none of these, or a name resolvers read as an
    ///   address (`2130706433`, `127.1`).
    public mutating func allow(_ destination: String) throws(SigningError) {
        do {
            destinations.append(try FetchPolicy.Destination(parsing: destination))
        } catch {
            throw SigningError(.invalidArgument, error.message)
        }
    }

    /// The transport's side: where connections may go.
    package var transportPolicy: FetchPolicy {
        .publicOnly(ports: allowedPorts, allowing: destinations)
    }
}
