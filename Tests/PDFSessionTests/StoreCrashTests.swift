import Foundation
import PDFTestSupport
import Testing

@testable import PDFSession

/// Kills `StoreCrashProbe` with SIGKILL at random moments while it appends revisions, then checks
/// the store holds a consistent prefix that includes every commit the probe reported.
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
}
