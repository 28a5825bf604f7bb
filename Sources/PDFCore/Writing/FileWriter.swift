#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files atomically: to a temporary file beside the target, flushed to disk, then renamed
/// over it (ARCHITECTURE.md invariant 9), so a crash leaves the old file or the new one, never half.
package final class AtomicFileWriter {
    private let path: String
    /// The file being written, beside the target: readable (and mappable) while it is written, so
    /// a later update can be built from what is already there before it is appended.
    package let temporaryPath: String
    private var descriptor: Int32

    /// - Throws: `.writeFailed` when the temporary file cannot be created.
    package init(path: String) throws(PDFError) {
        self.path = path
        temporaryPath = path + ".autograph-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw PDFError(.writeFailed, "cannot create \(temporaryPath): \(String(cString: strerror(errno)))")
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws(PDFError) {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            #else
                let written = Darwin.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                throw PDFError(.writeFailed, "cannot write \(temporaryPath): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    package func write(_ bytes: [UInt8]) throws(PDFError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(PDFError) in try self.write(buffer) }
        }.get()
    }

    /// Flushes to disk, closes and renames over the target, or over `target` when given (a path
    /// on the same file system, like the temporary file a caller checks before it renames it).
    package func commit(as target: String? = nil) throws(PDFError) {
        let path = target ?? self.path
        guard descriptor >= 0 else { throw PDFError(.writeFailed, "\(path) was already committed") }
        let flushed = fsync(descriptor) == 0
        let reason = String(cString: strerror(errno))
        close(descriptor)
        descriptor = -1
        guard flushed else {
            unlink(temporaryPath)
            throw PDFError(.writeFailed, "cannot flush \(temporaryPath): \(reason)")
        }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw PDFError(.writeFailed, "cannot rename to \(path): \(reason)")
        }
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporaryPath)
        }
    }
}
