import Foundation
import PDFTestSupport
import Testing

@testable import PDFSession

/// Kills `StoreCrashProbe` with SIGKILL at random moments while it appends revisions, then checks
/// the store holds a consistent prefix that includes every commit the probe reported; and while it
/// opens stores of record format 1 (which moves their records to format 2), then checks the store
/// it was opening reads back whole, old or moved.
@Suite(
    "Store crash safety", .serialized,
    .enabled(if: Requirement.builtProduct("StoreCrashProbe"), "StoreCrashProbe is not built next to the test binary")
) struct StoreCrashTests {
    /// The probe's revision n (the same bytes as `revision(_:)` in StoreCrashProbe/main.swift).
    static func revision(_ n: Int) -> [UInt8] {
        var bytes = Array("rev \(n)\n".utf8)
        bytes.reserveCapacity(65536)
        for index in bytes.count..<65536 { bytes.append(UInt8(truncatingIfNeeded: n &* 31 &+ index &* 7)) }
        return bytes
    }

    /// The probe's state "n <n> count <count>" parsed; (-1, -1) when malformed.
    static func stateNumbers(_ state: [UInt8]) -> (n: Int, count: Int) {
        let words = String(decoding: state, as: UTF8.self).split(separator: " ")
        guard words.count == 4, words[0] == "n", words[2] == "count", let n = Int(words[1]), let count = Int(words[3])
        else { return (-1, -1) }
        return (n, count)
    }

    @Test("SIGKILL at random moments never loses a reported commit nor leaves a torn document")
    func killedProbe() throws {
        let probe = try #require(TestPaths.builtProduct("StoreCrashProbe"))
        let path = try StoreFixtures.databasePath()
        let key = StoreFixtures.key(5)
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        var commits = 0
        var lastReported = 0
        while kills < 24 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: probe)
            process.arguments = [path, "crash-user", StoreFixtures.hex(key)]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            usleep(UInt32(Int.random(in: 5...80, using: &generator) * 1000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let text = String(decoding: Oracle.readAll(output.fileHandleForReading.fileDescriptor), as: UTF8.self)
            let reported = text.split(separator: "\n").compactMap { line -> Int? in
                line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
            }
            guard process.terminationReason == .uncaughtSignal else {
                let message = String(
                    decoding: Oracle.readAll(errors.fileHandleForReading.fileDescriptor), as: UTF8.self)
                Issue.record("the probe exited by itself (\(process.terminationStatus)): \(message)")
                return
            }
            kills += 1
            commits += reported.count
            if let last = reported.last {
                #expect(reported == Array(reported[0]...last), "commits reported out of order")
                lastReported = last
            }
            // after every kill: the document loads whole, its state matches its revisions, and
            // every reported commit survived
            let store = try SecureStore(username: "crash-user", storageKey: key, path: path)
            guard try store.contains(documentID: "doc") else {
                #expect(lastReported == 0)
                continue
            }
            let document = try store.load(documentID: "doc")
            let n = Self.stateNumbers(document.state)
            #expect(n.n == document.revisions.count && n.count == document.revisions.count, "torn after kill \(kills)")
            #expect(n.n >= lastReported, "kill \(kills): commit \(lastReported) was reported but \(n.n) are stored")
        }

        let store = try SecureStore(username: "crash-user", storageKey: key, path: path)
        let document = try store.load(documentID: "doc")
        let n = Self.stateNumbers(document.state).n
        #expect(n == document.revisions.count)
        #expect(n >= lastReported)
        for (index, revision) in document.revisions.enumerated() where revision != Self.revision(index + 1) {
            Issue.record("revision \(index + 1) has other bytes than the probe wrote")
            break
        }
        #expect(document.original == Array("%PDF-1.7 probe original\n".utf8))
        print(
            "store crash test: \(kills) kills, \(commits) reported commits, \(n) revisions stored, last reported \(lastReported)"
        )
        #expect(commits > 0, "no run lived long enough to commit: the test proved nothing")
    }

    @Test("SIGKILL while stores of format 1 are opened and moved leaves each one readable, old or moved, and whole")
    func killedMigration() throws {
        let probe = try #require(TestPaths.builtProduct("StoreCrashProbe"))
        let ada = FormatOneStore.ada
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        var migrations = 0
        // Kills that came while the probe was opening a store (which moves it): the store left old or moved.
        var duringOpen = (formatOne: 0, moved: 0)
        while kills < 24 {
            let directory = try TestPaths.temporaryDirectory("store-migration-crash")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: probe)
            process.arguments = [
                "migrate", FormatOneStore.fixture, directory, ada.name, StoreFixtures.hex(FormatOneStore.key),
            ]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            usleep(UInt32(Int.random(in: 5...150, using: &generator) * 1000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let lines = String(decoding: Oracle.readAll(output.fileHandleForReading.fileDescriptor), as: UTF8.self)
                .split(separator: "\n")
            guard process.terminationReason == .uncaughtSignal else {
                let message = String(
                    decoding: Oracle.readAll(errors.fileHandleForReading.fileDescriptor), as: UTF8.self)
                Issue.record("the probe exited by itself (\(process.terminationStatus)): \(message)")
                return
            }
            kills += 1
            let copied = lines.compactMap { $0.hasPrefix("copied ") ? Int($0.dropFirst("copied ".count)) : nil }
            let moved = lines.compactMap { $0.hasPrefix("migrated ") ? Int($0.dropFirst("migrated ".count)) : nil }
            migrations += moved.count
            guard let last = copied.last else { continue }  // killed before its first copy was in place
            // The stores it finished opening are moved; the one it was opening is either.
            let path = directory + "/store-\(last).sqlite"
            let owner = try StoreMigrationTests.owner(ada, path)
            for earlier in moved {
                let earlierPath = directory + "/store-\(earlier).sqlite"
                #expect(
                    try StoreMigrationTests.legacyRows(StoreMigrationTests.owner(ada, earlierPath), earlierPath) == 0,
                    "kill \(kills): store \(earlier) was reported moved but is not")
            }
            if moved.last != last {
                if try StoreMigrationTests.legacyRows(owner, path) > 0 {
                    duringOpen.formatOne += 1
                } else {
                    duringOpen.moved += 1
                }
            }
            for user in FormatOneStore.users { try FormatOneStore.expectContents(of: user, at: path) }
            #expect(try StoreMigrationTests.legacyRows(owner, path) == 0)
        }
        print(
            "store migration crash test: \(kills) kills, \(migrations) stores reported moved; "
                + "\(duringOpen.formatOne + duringOpen.moved) kills came while a store was being opened, which left it "
                + "in format 1 \(duringOpen.formatOne) times and moved \(duringOpen.moved) times")
        #expect(migrations > 0, "no run lived long enough to move a store: the test proved nothing")
    }
}
