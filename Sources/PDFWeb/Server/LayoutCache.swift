import Dispatch
import PDFCore
import PDFViewer

/// The layouts computed for the documents served: each computed once per revision (the document,
/// compared by identity), configuration, viewport and zoom — however many ask at once — off Swift's
/// cooperative pool, and kept for the few last asked. A document of 100,000 pages takes a while to
/// lay out; four viewers asking for it at once delayed `/api/state` to 1.4 s when each computed it
/// on the pool.
actor LayoutCache {
    /// What a layout depends on besides the document.
    struct Key: Hashable {
        var configuration: LayoutConfiguration
        var width: Double
        var height: Double
        var zoom: Double?
    }

    private struct Entry {
        let document: PDFDocument
        let key: Key
        let layout: Task<LayoutDescription, Never>
    }

    /// The most layouts kept (a window resized keeps asking for new ones; the last few are reused).
    static let capacity = 6
    private var entries: [Entry] = []

    /// The layout of `document` for `key`: the one kept, the one being computed, or a new one.
    func layout(of document: PDFDocument, _ key: Key) async -> LayoutDescription {
        if let index = entries.firstIndex(where: { $0.document === document && $0.key == key }) {
            let entry = entries.remove(at: index)
            entries.append(entry)
            return await entry.layout.value
        }
        let task = Task { await Self.compute(document, key) }
        entries.removeAll { $0.document !== document }
        entries.append(Entry(document: document, key: key, layout: task))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        return await task.value
    }

    /// Lays `document` out on a Dispatch thread: reading every page's boxes and computing every
    /// frame is work in the page count.
    private static func compute(_ document: PDFDocument, _ key: Key) async -> LayoutDescription {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let pages = document.pages.map {
                    PageGeometry(cropBox: $0.cropBox, rotation: $0.rotation, userUnit: $0.userUnit)
                }
                continuation.resume(
                    returning: LayoutDescription(
                        pages: pages, configuration: key.configuration,
                        viewportSize: PDFSize(width: key.width, height: key.height), zoom: key.zoom))
            }
        }
    }
}
