import AutographJSON
import PDFCore
import PDFGraphics
import PDFRendering
import PDFSigning

/// The signature panel: each signature's verdict and what changed after it.
extension WebRouter {
    /// `GET /api/validation`: `{"revisions": n, "signatures": [verify --json's object + "summary" +
    /// "trustedBy"]}`, against the server's trust roots and its own demo roots.
    func validation() async throws(WebError) -> JSONValue {
        let demoRoots = configuration.demoTrustRoots
        let (document, statuses) = try await backend.validate(trustRoots: configuration.trustRoots + demoRoots)
        let signatures = statuses.map { status -> JSONValue in
            guard case .object(var members) = status.json else { return status.json }
            members.append(("summary", .string(status.summary)))
            members.append(("trustedBy", Self.trustedBy(status, demoRoots: demoRoots)))
            return .object(members)
        }
        return .object([("revisions", .int(document.revisions.count)), ("signatures", .array(signatures))])
    }

    /// Who trusts the signer: `"demo"` when its path ends at one of this server's own demo roots
    /// (trusted by nothing else), `"configured"` at a `--trust` root, null when not trusted.
    static func trustedBy(_ status: SignatureStatus, demoRoots: [Certificate]) -> JSONValue {
        guard case .trusted(let chain) = status.trust, let anchor = chain.last else { return .null }
        return demoRoots.contains { $0.derBytes == anchor.derBytes } ? .string("demo") : .string("configured")
    }
}

extension WebRouter {
    /// `GET /api/validation/diff?revision=R&page=N`: where page N of the current document differs
    /// from revision R, as regions in the current page's user space (drawn at 48 dpi on a rendering
    /// thread within the tile budget).
    func validationDiff(_ request: HTTPRequest) async throws(WebError) -> JSONValue {
        guard let revision = try CheckedInput.integer(request.query, "revision", in: 0...1_000_000) else {
            throw WebError.badRequest("revision is required", member: "revision")
        }
        guard let index = try CheckedInput.integer(request.query, "page", in: 0...10_000_000) else {
            throw WebError.badRequest("page is required", member: "page")
        }
        let original = try await backend.renderer(revision: revision)
        let (current, _) = try await backend.currentRenderer()
        let count = max(original.document.pageCount, current.document.pageCount)
        guard index < count else {
            throw WebError.notFound("no page \(index) (the pages are 0 to \(count - 1))")
        }
        let budget = RenderBudget(
            deadline: request.received + configuration.renderTimeLimit, maxItems: configuration.maxDisplayItems)
        request.client?.onGone { budget.cancel() }
        var options = RenderOptions()
        options.dpi = 48
        // A hostile page size must not make two renders of gigapixels: at most a tile's pixels each.
        let largest =
            [original.document.pages, current.document.pages].compactMap { pages in
                pages.indices.contains(index) ? pages[index] : nil
            }.map { page in
                let size = PageRenderer.pixelSize(
                    cropBox: page.cropBox, pageRotation: page.rotation, options: options)
                return Double(size.width) * Double(size.height)
            }.max() ?? 0
        if largest > Double(configuration.maxTilePixels) {
            options.dpi *= (Double(configuration.maxTilePixels) / largest).squareRoot()
        }
        options.budget = budget
        let drawOptions = options
        let wait = min(configuration.maxTileWait, request.received + configuration.renderTimeLimit - .now)
        let compared = await TileWorkers.shared.run(maxWait: wait, client: request.client) {
            PageDifference.compare(original, current, pageAt: index, options: drawOptions)
        }
        let regions: [JSONValue]
        let share: Double
        switch compared {
        case .success(.same):
            (regions, share) = ([], 0)
        case .success(.unrendered):
            throw Self.budgetError(budget.stop, page: index)
        case .success(.changed(let changed)):
            regions = changed.difference.regions.map { region in
                let box = region.userSpace
                return .object([
                    ("x", .double(box.x0)), ("y", .double(box.y0)), ("width", .double(box.x1 - box.x0)),
                    ("height", .double(box.y1 - box.y0)),
                ])
            }
            share = changed.difference.changedShare
        case .failure(.clientGone): throw WebError.clientGone
        case .failure(.waitedTooLong): throw WebError.busy("every rendering thread is taken", retryAfter: 2)
        }
        return .object([
            ("page", .int(index)), ("revision", .int(revision)), ("changedShare", .double(share)),
            ("regions", .array(regions)),
        ])
    }
}
