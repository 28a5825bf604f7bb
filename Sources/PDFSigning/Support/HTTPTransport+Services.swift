import HTTPClient

extension HTTPTransport {
    /// The body of the answer a service the signing layer asks (a time-stamp authority, an OCSP
    /// responder, a CRL distribution point) gives to `request`: one exchange, bounded as the
    /// request says, with the failures worded the same way for each.
    ///
    /// - Parameters:
    ///   - request: the request, its time and size limits set.
    ///   - service: the service, as a message names it (`the OCSP responder http://…`).
    ///   - code: the error code of a failure.
    /// - Throws: `code` when no answer comes ("cannot be reached", with why) or its status is not
    ///   2xx ("answered HTTP 404").
    func body(
        of request: HTTPClientRequest, from service: String, failing code: SigningError.Code
    ) async throws(SigningError) -> [UInt8] {
        let response: HTTPClientResponse
        do {
            response = try await send(request)
        } catch {
            throw SigningError(code, "\(service) cannot be reached: \(error.message)")
        }
        guard response.isSuccess else { throw SigningError(code, "\(service) answered HTTP \(response.status)") }
        return response.body
    }
}
