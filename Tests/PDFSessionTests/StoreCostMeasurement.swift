import Foundation
import PDFTestSupport
import Testing

@testable import PDFSession

/// What the store costs, measured on demand (`AUTOGRAPH_STORE_COST=1 swift test --skip-build --filter
/// StoreCostMeasurement`): opening a store of 200 documents, saving and appending to one document
/// 300 times, listing and loading. Only the public `SecureStore` API is timed, so the same file
/// measures any version of the store.
@Suite(
    "Store cost", .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["AUTOGRAPH_STORE_COST"] != nil, "AUTOGRAPH_STORE_COST is not set"))
struct StoreCostMeasurement {
    static let documents = 200
    static let opens = 50
    static let writes = 300

    /// The mean time of `body` over `count` runs, in milliseconds.
    static func mean(_ count: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<count { try body(index) }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return seconds * 1000 / Double(count)
    }

    static func format(_ milliseconds: Double) -> String {
        String(format: "%.3f ms", milliseconds)
    }

    @Test("opening, saving, appending, listing and loading, timed")
    func measure() throws {
        let path = try StoreFixtures.databasePath()
        let key = StoreFixtures.key(9)
        let state = StoreFixtures.document(count: 4096, seed: 3)
        do {
            let store = try SecureStore(username: "ada", storageKey: key, path: path)
            for index in 0..<Self.documents {
                let id = "contract-\(index).pdf"
                try store.create(
                    documentID: id, original: StoreFixtures.document(count: 20_000, seed: UInt64(index)), state: state)
                try store.append(documentID: id, revision: StoreFixtures.document(count: 2048, seed: 1), state: state)
                try store.append(documentID: id, revision: StoreFixtures.document(count: 2048, seed: 2), state: state)
            }
        }
        let open = try Self.mean(Self.opens) { _ in
            _ = try SecureStore(username: "ada", storageKey: key, path: path)
        }
        let store = try SecureStore(username: "ada", storageKey: key, path: path)
        var version = try store.load(documentID: "contract-0.pdf").version
        let save = try Self.mean(Self.writes) { index in
            var changed = state
            changed[0] = UInt8(truncatingIfNeeded: index)
            version = try store.save(documentID: "contract-0.pdf", state: changed, expecting: version)
        }
        let revision = StoreFixtures.document(count: 2048, seed: 4)
        let append = try Self.mean(Self.writes) { _ in
            version = try store.append(
                documentID: "contract-0.pdf", revision: revision, state: state, expecting: version)
        }
        var ids: [String] = []
        let list = try Self.mean(20) { _ in ids = try store.documentIDs() }
        #expect(ids.count == Self.documents)
        let load = try Self.mean(100) { index in
            let document = try store.load(documentID: "contract-\(index % Self.documents).pdf")
            #expect(document.revisions.count >= 2)
        }
        #expect(try store.revisionCount(documentID: "contract-0.pdf") == 2 + Self.writes)
        print(
            "store cost (\(Self.documents) documents of 3 records): open \(Self.format(open)) (mean of \(Self.opens)), "
                + "save \(Self.format(save)) and append \(Self.format(append)) (means of \(Self.writes)), "
                + "documentIDs \(Self.format(list)) (mean of 20), load \(Self.format(load)) (mean of 100)")
    }
}
