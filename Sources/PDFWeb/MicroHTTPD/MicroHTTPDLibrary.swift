import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// libmicrohttpd, opened when a server starts rather than linked: Debian's build brings GnuTLS and
/// a dozen libraries whose loading and initialisation would slow every other `autograph` command's
/// start (4.5 → 8 ms measured), for the one command that serves.
struct MicroHTTPDLibrary: @unchecked Sendable {
    /// `MHD_start_daemon_va`. Its last parameter, a `va_list`, is passed as the pointer it is on
    /// x86-64 and AArch64 Linux (`CVaListPointer` is that pointer; a C function type cannot name it).
    let startDaemon:
        @convention(c) (
            UInt32, UInt16, MHD_AcceptPolicyCallback?, UnsafeMutableRawPointer?, MHD_AccessHandlerCallback?,
            UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
        ) -> OpaquePointer?
    let stopDaemon: @convention(c) (OpaquePointer?) -> Void
    let addResponseHeader: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> MHD_Result
    let createResponseFromBuffer:
        @convention(c) (Int, UnsafeMutableRawPointer?, MHD_ResponseMemoryMode) -> OpaquePointer?
    let createResponseFromCallback:
        @convention(c) (
            UInt64, Int, MHD_ContentReaderCallback?, UnsafeMutableRawPointer?, MHD_ContentReaderFreeCallback?
        ) -> OpaquePointer?
    let destroyResponse: @convention(c) (OpaquePointer?) -> Void
    let getConnectionValues:
        @convention(c) (OpaquePointer?, MHD_ValueKind, MHD_KeyValueIterator?, UnsafeMutableRawPointer?) -> Int32
    let lookupConnectionValue:
        @convention(c) (OpaquePointer?, MHD_ValueKind, UnsafePointer<CChar>?) -> UnsafePointer<CChar>?
    let queueResponse: @convention(c) (OpaquePointer?, UInt32, OpaquePointer?) -> MHD_Result
    /// `MHD_get_connection_info` for the kinds that take no further argument (the socket).
    let connectionInfo: @convention(c) (OpaquePointer?, MHD_ConnectionInfoType) -> UnsafePointer<MHD_ConnectionInfo>?
    /// `MHD_add_connection`: a connection accepted by the gate (``ConnectionGate``).
    let addConnection: @convention(c) (OpaquePointer?, Int32, UnsafePointer<sockaddr>?, socklen_t) -> MHD_Result
    /// `MHD_set_connection_option` (variadic: called through `autograph_mhd_set_connection_timeout`).
    let setConnectionOption: UnsafeMutableRawPointer

    /// The library, opened once; nil with the loader's message when it cannot be.
    static let shared: Result<MicroHTTPDLibrary, WebError> = open()

    private static func open() -> Result<MicroHTTPDLibrary, WebError> {
        var handle: UnsafeMutableRawPointer?
        for name in ["libmicrohttpd.so.12", "libmicrohttpd.so"] {
            handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)
            if handle != nil { break }
        }
        guard let handle else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(
                WebError.internal(
                    "libmicrohttpd cannot be loaded (\(reason)); install libmicrohttpd12 (Debian)"))
        }
        func symbol<T>(_ name: String, as type: T.Type = T.self) throws(WebError) -> T {
            guard let address = dlsym(handle, name) else {
                throw WebError.internal("libmicrohttpd has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        do {
            return .success(
                MicroHTTPDLibrary(
                    startDaemon: try symbol("MHD_start_daemon_va"),
                    stopDaemon: try symbol("MHD_stop_daemon", as: (@convention(c) (OpaquePointer?) -> Void).self),
                    addResponseHeader: try symbol(
                        "MHD_add_response_header",
                        as: (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> MHD_Result)
                            .self),
                    createResponseFromBuffer: try symbol(
                        "MHD_create_response_from_buffer",
                        as: (@convention(c) (Int, UnsafeMutableRawPointer?, MHD_ResponseMemoryMode) -> OpaquePointer?)
                            .self),
                    createResponseFromCallback: try symbol("MHD_create_response_from_callback"),
                    destroyResponse: try symbol(
                        "MHD_destroy_response", as: (@convention(c) (OpaquePointer?) -> Void).self),
                    getConnectionValues: try symbol("MHD_get_connection_values"),
                    lookupConnectionValue: try symbol("MHD_lookup_connection_value"),
                    queueResponse: try symbol(
                        "MHD_queue_response",
                        as: (@convention(c) (OpaquePointer?, UInt32, OpaquePointer?) -> MHD_Result).self),
                    connectionInfo: try symbol("MHD_get_connection_info"),
                    addConnection: try symbol("MHD_add_connection"),
                    setConnectionOption: try symbol("MHD_set_connection_option")))
        } catch {
            return .failure(error)
        }
    }

}
