import PDFSession

// A process the store's crash test kills at random moments (see StoreCrashTests):
//
//     StoreCrashProbe <db-path> <username> <hexkey>
//
// appends revision n (`revision(n)` below, 64 KiB) with state "n <n> count <n>" to document
// "doc" forever, printing "committed <n>" after each commit. It resumes from the stored count.
//
//     StoreCrashProbe migrate <store> <directory> <username> <hexkey>
//
// copies <store> (a store of record format 1) to <directory>/store-<n>.sqlite, printing
// "copied <n>" once the copy is in place, then opens it for <username>, which moves the user's
// records to format 2, printing "migrated <n>" when the store is open; for n = 1, 2, … forever.
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

/// Copies `source` to `target`: written to a temporary name and synced, then renamed, so that
/// `target` is always a whole copy.
func copy(_ source: String, to target: String) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { fail("cannot open \(source)") }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { fail("cannot read \(source)") }
        if count == 0 { break }
        bytes += buffer[0..<count]
    }
    close(input)
    let temporary = target + ".copying"
    let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard output >= 0 else { fail("cannot create \(temporary)") }
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(output, $0.baseAddress! + offset, $0.count - offset) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { fail("cannot write \(temporary)") }
        offset += written
    }
    guard fsync(output) == 0, close(output) == 0, rename(temporary, target) == 0 else {
        fail("cannot put the copy in place at \(target)")
    }
}

/// The 64-byte key from its hex form.
func storageKey(hex text: String) -> [UInt8] {
    let hex = Array(text.utf8)
    guard hex.count % 2 == 0 else { fail("the key must be hex") }
    var key: [UInt8] = []
    for index in stride(from: 0, to: hex.count, by: 2) {
        guard let byte = UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) else {
            fail("the key must be hex")
        }
        key.append(byte)
    }
    return key
}

let arguments = CommandLine.arguments
if arguments.count == 6, arguments[1] == "migrate" {
    let key = storageKey(hex: arguments[5])
    var n = 0
    while true {
        n += 1
        let path = arguments[3] + "/store-\(n).sqlite"
        copy(arguments[2], to: path)
        say("copied \(n)")
        do {
            _ = try SecureStore(username: arguments[4], storageKey: key, path: path)
        } catch {
            fail("\(error)")
        }
        say("migrated \(n)")
    }
}
guard arguments.count == 4 else {
    fail("usage: StoreCrashProbe <db-path> <username> <hexkey> | migrate <store> <directory> <username> <hexkey>")
}
let key = storageKey(hex: arguments[3])

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
