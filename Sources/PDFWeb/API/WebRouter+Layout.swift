import AutographJSON
import PDFCore
import PDFSession
import PDFViewer

/// `GET /api/layout`: where spreads and pages go for a viewport, and how PDF space maps onto each
/// page — computed by `PDFViewer`, so the browser and a native viewer share one layout.
extension WebRouter {
    /// The most pages (and their spreads) one answer describes: a larger document is asked for in
    /// ranges (`first`, `count`), each answer as quick to write and send as the next.
    static let layoutPagesPerAnswer = 2000

    func layout(_ request: HTTPRequest) async throws(WebError) -> JSONValue {
        let document = try await backend.current().currentDocument
        let width = try CheckedInput.number(request.query, "width", in: 1...100_000) ?? 800
        let height = try CheckedInput.number(request.query, "height", in: 1...100_000) ?? 600
        let configuration = try Self.layoutConfiguration(request.query)
        let zoom = try CheckedInput.number(request.query, "zoom", in: 0.01...100)
        let fitsByZoom = request.query["fit"] == "zoom"
        let pageCount = document.pageCount
        let first = try CheckedInput.integer(request.query, "first", in: 0...max(0, pageCount - 1)) ?? 0
        let count =
            try CheckedInput.integer(request.query, "count", in: 1...Self.layoutPagesPerAnswer)
            ?? Self.layoutPagesPerAnswer
        let description = await layouts.layout(
            of: document,
            LayoutCache.Key(
                configuration: configuration, width: width, height: height, zoom: fitsByZoom ? zoom ?? 1 : nil))
        let range = first..<min(description.pages.count, first + count)
        let numbers = { (values: [Double]) -> JSONValue in .array(values.map { .double($0) }) }
        return .object([
            ("contentWidth", .double(description.contentWidth)), ("contentHeight", .double(description.contentHeight)),
            ("zoom", .double(description.zoom)),
            // The zoom's bounds, so that the browser's zoom gestures stop where the layout does.
            ("minZoom", .double(configuration.minZoom)), ("maxZoom", .double(configuration.maxZoom)),
            ("pageCount", .int(description.pages.count)), ("spreadCount", .int(description.spreads.count)),
            ("first", .int(range.lowerBound)),
            (
                "spreads",
                .array(
                    description.spreads.filter { spread in spread.pages.contains { range.contains($0) } }.map {
                        .object([
                            ("index", .int($0.index)), ("pages", .array($0.pages.map { .int($0) })),
                            ("frame", numbers($0.frame)),
                        ])
                    })
            ),
            (
                "pages",
                .array(
                    description.pages[range].map {
                        .object([
                            ("index", .int($0.index)), ("frame", numbers($0.frame)),
                            ("pdfToView", numbers($0.pdfToView)),
                        ])
                    })
            ),
        ])
    }

    /// The layout options of the query: `continuous`, `vertical`, `spreads`, `cover`, `spacing`, `fit`.
    static func layoutConfiguration(_ query: [String: String]) throws(WebError) -> LayoutConfiguration {
        func flag(_ name: String, _ fallback: Bool) -> Bool {
            query[name].map { $0 == "1" || $0 == "true" } ?? fallback
        }
        let spacing = try CheckedInput.number(query, "spacing", in: 0...1000) ?? 16
        let fit: LayoutConfiguration.Fit
        switch query["fit"] ?? "width" {
        case "width": fit = .width
        case "page": fit = .page
        case "zoom": fit = .zoom(try CheckedInput.number(query, "zoom", in: 0.01...100) ?? 1)
        default: throw WebError.badRequest("fit must be width, page or zoom")
        }
        return LayoutConfiguration(
            continuous: flag("continuous", true), direction: flag("vertical", true) ? .vertical : .horizontal,
            spreads: flag("spreads", false) ? .double(firstPageAlone: flag("cover", false)) : .single,
            spreadSpacing: spacing, fit: fit)
    }
}
