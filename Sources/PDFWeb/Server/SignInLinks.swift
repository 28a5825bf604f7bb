import Synchronization

/// The codes of the sign-in links: each opens the viewer in one browser, once.
///
/// A link's URL stays in the browser's History (Chromium records a redirect's source as a typed
/// visit that the address bar suggests), so it must be worthless once used: the code is spent at
/// its first use and is never the API token. A new link comes from `POST /api/links` (bearer
/// token only) or from `autograph serve` at start.
final class SignInLinks: Sendable {
    private let unused = Mutex<[String]>([])
    /// Links made and not yet used at most (the oldest are dropped beyond).
    static let capacity = 32

    /// A new code, valid for one use.
    func make() -> String {
        let code = WebServer.randomHex(24)
        unused.withLock { codes in
            codes.append(code)
            if codes.count > Self.capacity { codes.removeFirst() }
        }
        return code
    }

    /// Spends `code`: true when it was made here and not used yet (compared in constant time).
    func consume(_ code: String) -> Bool {
        unused.withLock { codes in
            guard let found = Self.index(of: code, in: codes) else { return false }
            codes.remove(at: found)
            return true
        }
    }

    /// Whether `code` was made here and is not used yet, without spending it (a `HEAD`, or the
    /// check of a request's head before its body arrives).
    func isUnused(_ code: String) -> Bool {
        unused.withLock { Self.index(of: code, in: $0) != nil }
    }

    /// Where `code` is among `codes`, every candidate compared in constant time.
    private static func index(of code: String, in codes: [String]) -> Int? {
        var found: Int?
        for (index, candidate) in codes.enumerated() where RequestPolicy.equal(code, candidate) { found = index }
        return found
    }
}
