import AutographJSON
import PDFCore
import PDFSession
import PDFSigning

/// Signing with the person's own certificate at their trust service provider (``ProviderSigning``).
extension WebRouter {
    /// `GET /api/provider-signing`: `{"available": …, "signer": …, "authorization": …, "credential":
    /// …, "credentials": […]}`: whether the server has a provider; whose certificate signs the
    /// open document's next signature when one was chosen, and how it is authorized (`once`,
    /// `perSignature`, `pin`); the credentials of the person's account there, once they signed in
    /// (each `{id, signer, authorization, pin, otp, pinLabel}`, `pin` and `otp` being `none`,
    /// `optional` or `required`).
    func providerSigningState() async throws(WebError) -> JSONValue {
        var signer: JSONValue = .null
        var authorization: JSONValue = .null
        var credential: JSONValue = .null
        if let chosen = await providerSigner() {
            signer = .string(chosen.signerName ?? chosen.credential.id)
            let mode = chosen.credential.authMode
            authorization = .string(mode == "oauth2code" ? "perSignature" : mode == "explicit" ? "pin" : "once")
            credential = .string(chosen.credential.id)
        }
        let credentials = (backend.providerSigning?.credentials(for: await backend.session) ?? []).map { entry in
            JSONValue.object([
                ("id", .string(entry.id)), ("signer", .string(entry.signer)),
                ("authorization", .string(entry.authorization)), ("pin", .string(entry.pin.rawValue)),
                ("otp", .string(entry.otp.rawValue)), ("pinLabel", .string(entry.pinLabel)),
            ])
        }
        return .object([
            ("available", .bool(backend.providerSigning != nil)), ("signer", signer), ("authorization", authorization),
            ("credential", credential), ("credentials", .array(credentials)),
        ])
    }

    /// `POST /api/provider-signing/credential` `{"credential": id, "pin": …, "otp": …}`: the
    /// account's credential `id` signs the open document's next signatures (its PIN and one-time
    /// password, for an explicit one, are checked by the provider when the signature is made, and
    /// kept nowhere but in the signer). Answers the state, as `GET`.
    /// - Throws: 404 without a provider, 400 for a body without a credential or without a PIN the
    ///   credential requires, −127 for a credential the account does not have, 409 while a
    ///   signature is under way.
    func chooseProviderCredential(_ request: HTTPRequest) async throws(WebError) -> JSONValue {
        guard let provider = backend.providerSigning else {
            throw WebError.notFound("this server signs with no provider's certificates")
        }
        let body = try request.json()
        guard let id = body["credential"]?.stringValue, !id.isEmpty, id.utf8.count <= 256 else {
            throw WebError.badRequest("give the credential's id", member: "credential")
        }
        func secret(_ name: String) throws(WebError) -> String? {
            guard let value = body[name], value != .null else { return nil }
            guard let text = value.stringValue, text.utf8.count <= 256 else {
                throw WebError.badRequest("\(name) is a string of at most 256 bytes", member: name)
            }
            return text
        }
        let pin = try secret("pin")
        let otp = try secret("otp")
        let session = try await backend.current()
        let underWay = WebError(
            .conflict, code: "invalidState", message: "a signature is under way: the certificate is chosen before")
        switch await session.phase {
        case .editing, .finished: break
        default: throw underWay
        }
        let signer: CSCSigner
        do {
            signer = try await provider.select(id, for: session, pin: pin, otp: otp)
        } catch {
            throw WebError(error)
        }
        // Checked again where it is set: a signature may have started while the provider answered.
        guard await session.configureWhileIdle(signing: .signer(signer)) else { throw underWay }
        return try await providerSigningState()
    }

    /// The open document's signer when it is the person's provider credential.
    func providerSigner() async -> CSCSigner? {
        guard let session = await backend.session,
            case .signer(let chosen as CSCSigner) = await session.signatureConfiguration.signing
        else { return nil }
        return chosen
    }

    /// `POST /api/provider-signing/authorize`: `{"url": …}`, the provider's page where the person
    /// authorizes the prepared signature's hash (an `oauth2code` credential); coming back confirms it.
    /// 409 when no signature waits for its confirmation or the signer needs no such authorization.
    func beginSignatureAuthorization(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        guard let provider = backend.providerSigning else {
            throw WebError.notFound("this server signs with no provider's certificates")
        }
        let session = try await backend.current()
        guard let signer = await providerSigner(), signer.credential.authMode == "oauth2code",
            await session.phase == .confirming, let prepared = await session.preparedSignature
        else {
            throw WebError(
                .conflict, code: "invalidState",
                message: "no signature with a provider's credential waits for its authorization")
        }
        let url: String
        do {
            url = try provider.beginSignature(
                signer: signer, digest: prepared.digest, algorithm: prepared.digestAlgorithm,
                redirectURI: Self.providerReturnURI(request))
        } catch {
            throw WebError(error)
        }
        return .json(.object([("url", .string(url))]), status: 201)
    }

    /// `POST /api/provider-signing`: `{"url": …}`, the provider's authorization page, which sends
    /// the browser back to `/provider-return` on the address the request named (its `Host`,
    /// checked by the policy).
    func beginProviderSigning(_ request: HTTPRequest) async throws(WebError) -> HTTPResponse {
        guard let provider = backend.providerSigning else {
            throw WebError.notFound(
                "this server signs with no provider's certificates (serve --csc … without --credential)")
        }
        let session = try await backend.current()
        let url: String
        do {
            url = try await provider.begin(redirectURI: Self.providerReturnURI(request), from: session)
        } catch {
            throw WebError(error)
        }
        return .json(.object([("url", .string(url))]), status: 201)
    }

    /// `GET /provider-return?code=…&state=…` (or `?error=…&state=…`): the browser back from the
    /// provider. The state names the authorization; its signer then signs the open document's
    /// signatures. Answers a page that goes on to the viewer (the browser sends this server's cookie
    /// on that second, same-site navigation), or says what failed.
    func providerReturn(_ request: HTTPRequest) async -> HTTPResponse {
        guard let provider = backend.providerSigning else {
            return Self.page(404, "Not found", "This server signs with no provider's certificates.")
        }
        guard let state = request.query["state"], state.utf8.count <= 128 else {
            return Self.page(400, "Not signed in", "The provider's answer has no state.")
        }
        if let error = request.query["error"] {
            provider.cancel(state: state)
            let detail = request.query["error_description"].map { ": " + $0 } ?? ""
            return Self.page(
                403, "Not authorized",
                "The provider did not authorize the signature (\(String((error + detail).prefix(200))))", back: true)
        }
        guard let code = request.query["code"], code.utf8.count <= 4096 else {
            return Self.page(400, "Not signed in", "The provider's answer has no code.")
        }
        do {
            let outcome = try await provider.finish(code: code, state: state)
            guard let session = await backend.session else {
                return Self.page(409, "No document", "No document is open any more.", back: true)
            }
            switch outcome {
            case .signer(let signer, let owner):
                // Only the document the person signed in from takes their certificate.
                guard owner === session else {
                    return Self.page(409, "No document", "The document you signed in from is closed.", back: true)
                }
                guard await session.configureWhileIdle(signing: .signer(signer)) else {
                    return Self.page(
                        409, "Signature under way", "A signature is being made: choose the certificate after it.",
                        back: true)
                }
                return Self.page(
                    200, "Certificate chosen",
                    "Your signature will be made with the certificate of \(signer.signerName ?? signer.credential.id).",
                    back: true, refresh: true)
            case .chooseCredential(let owner):
                guard owner === session else {
                    return Self.page(409, "No document", "The document you signed in from is closed.", back: true)
                }
                return Self.page(
                    200, "Signed in at your provider",
                    "Choose your certificate in the viewer and enter what it asks for (its PIN).", back: true,
                    refresh: true)
            case .signatureAuthorized:
                // The person authorized the hash of the signature they saw: that is their confirmation.
                // Signing reports a failure as events; what tells is a signature more that verifies.
                let made = { (document: PDFDocument) in
                    SignatureValidator(document: document, trustRoots: []).validate().filter {
                        $0.digestIntact && $0.signatureValid
                    }.count
                }
                let before = made(session.currentDocument)
                try await session.confirmSignature()
                guard made(session.currentDocument) > before else {
                    return Self.page(
                        500, "Not signed", "The provider authorized the signature, but it could not be made.",
                        back: true)
                }
                return Self.page(
                    200, "Signed", "Your provider authorized the signature; it is made.", back: true, refresh: true)
            }
        } catch {
            let answer = WebError(error)
            return Self.page(answer.status, "Not signed in", answer.message, back: true)
        }
    }

    /// Where the provider sends the browser back: `/provider-return` on the address the request
    /// named (its `Host`, which the policy checked is this server's).
    static func providerReturnURI(_ request: HTTPRequest) -> String {
        "http://\(request.headers["host"] ?? "")\(RequestPolicy.providerReturn)"
    }

    /// A small HTML page (no script: the policy allows none inline); `refresh` goes on to the viewer.
    static func page(_ status: Int, _ title: String, _ text: String, back: Bool = false, refresh: Bool = false)
        -> HTTPResponse
    {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>\
            \(refresh ? "<meta http-equiv=\"refresh\" content=\"0; url=/\">" : "")</head>\
            <body><h1>\(escape(title))</h1><p>\(escape(text))</p>\
            \(back ? "<p><a href=\"/\">Back to the document</a></p>" : "")</body></html>
            """
        return HTTPResponse(
            status: status, contentType: "text/html; charset=utf-8", bytes: Array(html.utf8),
            headers: [("Cache-Control", "no-store")])
    }

    static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
