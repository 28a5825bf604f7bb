import PDFSession

// A process the store's crash test kills at random moments (see StoreCrashTests):
//
//     StoreCrashProbe <db-path> <username> <hexkey>
//
// appends revision n (`revision(n)` below, 64 KiB) with state "n <n> count <n>" to document
// "doc" forever, printing "committed <n>" after each commit. It resumes from the stored count.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line straight to a descriptor (no buffering to lose on SIGKILL).
func say(_ line: String, to descriptor: Int32 = 1) {
    var bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        offset += written
    }
    bytes.removeAll()
}

func fail(_ message: String) -> Never {
    say("StoreCrashProbe: \(message)", to: 2)
    exit(1)
}

/// Revision n: "rev <n>\n" then a 64 KiB pattern of n, so any mix-up of revisions shows.
func revision(_ n: Int) -> [UInt8] {
    var bytes = Array("rev \(n)\n".utf8)
    bytes.reserveCapacity(65536)
    for index in bytes.count..<65536 { bytes.append(UInt8(truncatingIfNeeded: n &* 31 &+ index &* 7)) }
    return bytes
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: StoreCrashProbe <db-path> <username> <hexkey>") }
let hex = Array(arguments[3].utf8)
guard hex.count % 2 == 0 else { fail("the key must be hex") }
var key: [UInt8] = []
for index in stride(from: 0, to: hex.count, by: 2) {
    guard let byte = UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) else {
        fail("the key must be hex")
    }
    key.append(byte)
}

do {
    let store = try SecureStore(username: arguments[2], storageKey: key, path: arguments[1])
    if try !store.contains(documentID: "doc") {
        try store.create(
            documentID: "doc", original: Array("%PDF-1.7 probe original\n".utf8), state: Array("n 0 count 0".utf8))
    }
    var n = try store.revisionCount(documentID: "doc")
    while true {
        n += 1
        try store.append(documentID: "doc", revision: revision(n), state: Array("n \(n) count \(n)".utf8))
        say("committed \(n)")
    }
} catch {
    fail("\(error)")
}
