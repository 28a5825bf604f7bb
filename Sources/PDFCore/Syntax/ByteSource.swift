#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Immutable bytes of a document: a read-only memory mapping of a file, or an owned buffer.
///
/// Every parsed value that still points into the file (stream data) keeps its source alive, so
/// values stay valid after the document that produced them is gone.
package final class ByteSource: @unchecked Sendable {
    private enum Owner {
        case mapping(UnsafeMutableRawPointer, Int)
        case allocation(UnsafeMutableRawPointer)
        case parent(ByteSource)
        case none
    }

    /// The first byte, or nil for an empty source.
    package let start: UnsafeRawPointer?
    package let count: Int
    private let owner: Owner
    /// Mappings at least this large give back the pages of each object once it is read.
    package static let releaseThreshold = 1 << 26

    /// Maps the file at `path` read-only.
    /// - Throws: `PDFError.fileUnreadable` with the system's reason.
    package init(contentsOfFile path: String) throws(PDFError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw PDFError(.fileUnreadable, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PDFError(.fileUnreadable, "cannot stat \(path): \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw PDFError(.fileUnreadable, "\(path) is not a regular file")
        }
        let size = Int(status.st_size)
        if size == 0 {
            start = nil
            count = 0
            owner = .none
            return
        }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let address, address != MAP_FAILED else {
            throw PDFError(.fileUnreadable, "cannot map \(path): \(String(cString: strerror(errno)))")
        }
        // Reading a PDF jumps around the file: without this, every object read maps (and counts
        // in the resident size) the neighbouring pages too. Large streams ask for read-ahead themselves.
        _ = madvise(address, size, MADV_RANDOM)
        start = UnsafeRawPointer(address)
        count = size
        owner = .mapping(address, size)
    }

    /// Copies `bytes` into a buffer owned by the source.
    package init(bytes: some Collection<UInt8>) {
        let size = bytes.count
        if size == 0 {
            start = nil
            count = 0
            owner = .none
            return
        }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        let buffer = UnsafeMutableRawBufferPointer(start: memory, count: size)
        // Arrays and slices are copied at once: element by element through the generic iterator,
        // a 5 MB document took 0.4 s to copy (every revision appended in a session reopens it).
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(source))
        }
        if copied == nil { _ = buffer.initializeMemory(as: UInt8.self, from: bytes) }
        start = UnsafeRawPointer(memory)
        count = size
        owner = .allocation(memory)
    }

    private init(parent: ByteSource, count: Int) {
        self.start = parent.start
        self.count = count
        self.owner = .parent(parent)
    }

    deinit {
        switch owner {
        case .mapping(let address, let size): munmap(address, size)
        case .allocation(let memory): memory.deallocate()
        case .parent, .none: break
        }
    }

    /// Tells the system that `range` will be read soon and in order (large stream data).
    package func willRead(_ range: Range<Int>) {
        guard case .mapping = rootOwner, range.count >= 1 << 16, let start else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lower = max(0, range.lowerBound) / pageSize * pageSize
        let upper = min(count, range.upperBound)
        guard upper > lower else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: start + lower), upper - lower, MADV_WILLNEED)
    }

    /// Called after an object at `range` was parsed from the file. A page fault on a mapped file
    /// maps the cached pages around it too (the kernel's fault-around, and whole large folios for a
    /// file written recently), so reading a few thousand scattered objects of a large file (walking
    /// the page tree of a 1 GB document) would leave hundreds of megabytes, up to the whole file,
    /// resident. For large mappings the 2 MiB-aligned span around the object is given back: the
    /// resident size stays small whatever the file size, and a page read again is mapped again from
    /// the page cache.
    package func releasePages(around range: Range<Int>) {
        guard count >= ByteSource.releaseThreshold, case .mapping(let address, let size) = rootOwner else { return }
        let span = 1 << 21
        let lower = max(0, range.lowerBound) / span * span
        let upper = min(size, (max(range.upperBound, range.lowerBound + 1) + span - 1) / span * span)
        guard upper > lower else { return }
        _ = madvise(address + lower, upper - lower, MADV_DONTNEED)
    }

    private var rootOwner: Owner {
        if case .parent(let parent) = owner { return parent.rootOwner }
        return owner
    }

    /// Calls `body` with `range` in chunks of at most `chunkSize` bytes, in order. For a mapped file,
    /// the pages of each chunk are given back to the system once read, so hashing or copying a file
    /// of any size keeps the resident size to about one chunk.
    package func forEachChunk(
        in range: Range<Int>, chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        let lower = max(0, min(range.lowerBound, count))
        let upper = max(lower, min(range.upperBound, count))
        guard upper > lower, let start else { return }
        let isMapped: Bool
        if case .mapping = rootOwner { isMapped = true } else { isMapped = false }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var position = lower
        while position < upper {
            let end = min(upper, position + chunkSize)
            try body(UnsafeRawBufferPointer(start: start + position, count: end - position))
            if isMapped {
                let first = (position + pageSize - 1) / pageSize * pageSize
                let last = end == count ? end : end / pageSize * pageSize
                if last > first {
                    _ = madvise(UnsafeMutableRawPointer(mutating: start + first), last - first, MADV_DONTNEED)
                }
            }
            position = end
        }
    }

    /// The first `length` bytes, sharing this source's memory.
    package func prefix(_ length: Int) -> ByteSource {
        ByteSource(parent: self, count: max(0, min(length, count)))
    }

    /// The bytes. Valid only while this source is alive: a caller that does not otherwise keep it
    /// alive must use `withExtendedLifetime`.
    package var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: start, count: count) }

    /// The bytes in `range`, clamped to the source.
    package func bytes(in range: Range<Int>) -> [UInt8] {
        let lower = max(0, min(range.lowerBound, count))
        let upper = max(lower, min(range.upperBound, count))
        return Array(UnsafeRawBufferPointer(rebasing: buffer[lower..<upper]))
    }

    @inline(__always) package subscript(offset: Int) -> UInt8 {
        start.unsafelyUnwrapped.load(fromByteOffset: offset, as: UInt8.self)
    }
}
