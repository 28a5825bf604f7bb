import AutographJSON
import Foundation
import PDFTestSupport
import Synchronization
import Testing

@testable import PDFWeb

/// `GET /api/layout` on a long document: computed once per revision and viewport, off the threads
/// that answer the API, and sent in ranges of pages.
@Suite struct WebLayoutTests {
    /// A document of `count` empty US Letter pages, written directly (one page tree node).
    static func manyPages(_ count: Int) -> [UInt8] {
        var out: [UInt8] = Array("%PDF-1.7\n".utf8)
        var offsets: [Int] = []
        func object(_ number: Int, _ body: String) {
            offsets.append(out.count)
            out += Array("\(number) 0 obj\n\(body)\nendobj\n".utf8)
        }
        object(1, "<< /Type /Catalog /Pages 2 0 R >>")
        let kids = (0..<count).map { "\($0 + 3) 0 R" }.joined(separator: " ")
        object(2, "<< /Type /Pages /Count \(count) /Kids [\(kids)] >>")
        for index in 0..<count {
            object(index + 3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>")
        }
        let xref = out.count
        var table = "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            table += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        table += "trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return out + Array(table.utf8)
    }

    @Test("100,000 pages: the layout comes in ranges, is computed once, and /api/state stays quick beside it")
    func longDocument() async throws {
        let server = try await TestServer(document: Self.manyPages(100_000))
        defer { Task { await server.stop() } }
        let query = "/api/layout?width=1000&height=800&fit=width&spacing=16"
        var alone = Duration.zero
        for _ in 0..<5 {
            let start = ContinuousClock.now
            _ = try await server.request("/api/state")
            alone = max(alone, ContinuousClock.now - start)
        }
        // Four viewers at once while a script reads the state every 50 ms, until all four have theirs.
        let began = ContinuousClock.now
        let layouts = Task {
            try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for _ in 0..<4 { group.addTask { try await server.request(query).json } }
                return try await group.reduce(into: [JSONValue]()) { $0.append($1) }
            }
        }
        let finished = Task {
            _ = try? await layouts.value
            return ContinuousClock.now - began
        }
        var slowest = Duration.zero
        var reads = 0
        let done = Atomic<Bool>(false)
        let watcher = Task {
            _ = await finished.value
            done.store(true, ordering: .relaxed)
        }
        while !done.load(ordering: .relaxed), reads < 1200 {
            let start = ContinuousClock.now
            #expect(try await server.request("/api/state").status == 200)
            slowest = max(slowest, ContinuousClock.now - start)
            reads += 1
            try await Task.sleep(for: .milliseconds(50))
        }
        _ = await watcher.value
        let answers = try await layouts.value
        let laidOut = await finished.value
        // The state's own time, however busy the machine, bounds it: computing a layout takes no thread
        // that answers the API (when it did, the state waited for the whole layout).
        #expect(
            slowest < max(.seconds(1), alone * 8),
            "/api/state took \(slowest) beside the layouts (\(reads) reads; \(alone) alone)")
        for answer in answers {
            #expect(answer["pageCount"]?.intValue == 100_000)
            #expect(answer["first"]?.intValue == 0)
            #expect(answer["pages"]?.arrayValue?.count == WebRouter.layoutPagesPerAnswer)
        }
        // Computed once: asked again, it is the kept one.
        let start = ContinuousClock.now
        let again = try await server.request(query + "&first=99000")
        let took = ContinuousClock.now - start
        #expect(took < .seconds(1), "a kept layout's range took \(took)")
        let pages = again.json["pages"]?.arrayValue ?? []
        #expect(pages.count == 1000 && pages.first?["index"]?.intValue == 99_000)
        #expect(pages.last?["index"]?.intValue == 99_999)
        // The frames follow each other: page 99,000 sits below 99,000 pages and their spacing.
        let zoom = again.json["zoom"]?.doubleValue ?? 0
        let y = pages.first?["frame"]?.arrayValue?[1].doubleValue ?? 0
        #expect(abs(y - 99_000 * (792 + 16) * zoom) < 1, "\(y)")
        #expect(again.json["spreads"]?.arrayValue?.first?["index"]?.intValue == 99_000)
        print(
            "layout of 100,000 pages: /api/state alone \(alone); four layouts at once in \(laidOut); /api/state slowest \(slowest) over \(reads) reads; "
                + "a kept range \(took)")
        // Out of range.
        #expect(try await server.request(query + "&first=100000").status == 400)
        #expect(try await server.request(query + "&count=2001").status == 400)
    }
}
