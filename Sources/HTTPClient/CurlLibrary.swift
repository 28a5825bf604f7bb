import CCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libcurl, opened when the first request is sent rather than linked: Debian's build brings GnuTLS,
/// Kerberos, LDAP, SASL and a score of other libraries, whose loading would slow the start of every
/// `autograph` command for the few requests one of them makes (libmicrohttpd is opened the same way,
/// for the same reason). `curl_global_init` runs once, when it is opened.
struct CurlLibrary: @unchecked Sendable {
    let easyInit: @convention(c) () -> UnsafeMutableRawPointer?
    let easyCleanup: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let easyPerform: @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    let easyStrerror: @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    let slistAppend:
        @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    let slistFreeAll: @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void
    /// `curl_easy_setopt` and `curl_easy_getinfo`: variadic, so called through CCurl's typed wrappers.
    let easySetopt: UnsafeMutableRawPointer
    let easyGetinfo: UnsafeMutableRawPointer
    /// The URL API (libcurl 7.62): a restricted transfer's URL is parsed once, checked, and that
    /// parsed URL handed to the transfer (`CURLOPT_CURLU`).
    let urlNew: @convention(c) () -> OpaquePointer?
    let urlCleanup: @convention(c) (OpaquePointer?) -> Void
    let urlSet: @convention(c) (OpaquePointer?, CURLUPart, UnsafePointer<CChar>?, UInt32) -> CURLUcode
    let urlGet:
        @convention(c) (OpaquePointer?, CURLUPart, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UInt32) ->
            CURLUcode
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// The library, opened once; the loader's message when it cannot be.
    static let shared: Result<CurlLibrary, HTTPClientError> = open()

    /// curl's text for `code`.
    func text(_ code: CURLcode) -> String {
        easyStrerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
    }

    private static func open() -> Result<CurlLibrary, HTTPClientError> {
        var handle: UnsafeMutableRawPointer?
        // libcurl4 (OpenSSL), then the GnuTLS build (the same ABI), then a development link.
        for name in ["libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"] {
            handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)
            if handle != nil { break }
        }
        guard let handle else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(
                HTTPClientError(.unavailable, "libcurl cannot be loaded (\(reason)); install libcurl4 (Debian)"))
        }
        func symbol<T>(_ name: String, as type: T.Type = T.self) throws(HTTPClientError) -> T {
            guard let address = dlsym(handle, name) else {
                throw HTTPClientError(.unavailable, "libcurl has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        do throws(HTTPClientError) {
            let globalInit = try symbol("curl_global_init", as: (@convention(c) (Int) -> CURLcode).self)
            let library = CurlLibrary(
                easyInit: try symbol("curl_easy_init"), easyCleanup: try symbol("curl_easy_cleanup"),
                easyPerform: try symbol("curl_easy_perform"), easyStrerror: try symbol("curl_easy_strerror"),
                slistAppend: try symbol("curl_slist_append"), slistFreeAll: try symbol("curl_slist_free_all"),
                easySetopt: try symbol("curl_easy_setopt"), easyGetinfo: try symbol("curl_easy_getinfo"),
                urlNew: try symbol("curl_url"), urlCleanup: try symbol("curl_url_cleanup"),
                urlSet: try symbol("curl_url_set"), urlGet: try symbol("curl_url_get"), free: try symbol("curl_free"))
            let code = globalInit(Int(CURL_GLOBAL_DEFAULT))
            guard code == CURLE_OK else {
                return .failure(HTTPClientError(.unavailable, "curl_global_init failed: \(library.text(code))"))
            }
            return .success(library)
        } catch {
            return .failure(error)
        }
    }
}
