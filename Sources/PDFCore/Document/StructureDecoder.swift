import Synchronization

/// Decodes the streams a document reads to find its objects — cross-reference streams and object
/// streams (ISO 32000-2 §7.5.7, §7.5.8) — within one budget of decoded bytes for the whole document
/// (``ParseOptions/maxDecodedStructureSize``), and keeps the object streams' decoded starts.
///
/// An object stream is decoded only as far as the objects read need (``ObjectLoader``), so a stream
/// that inflates to gigabytes costs what its first objects take. Every decoding is charged, a failed
/// one included, so a stream that passes the budget is refused once and quickly afterwards, however
/// many of its objects are asked for. One decoding runs at a time, under the lock that guards the
/// budget and the kept starts: threads reading one document neither pass the budget together nor
/// decode the same stream twice.
package final class StructureDecoder: Sendable {
    /// The least of an object stream decoded at once: most are smaller, and are decoded whole.
    package static let minimumPrefix = 1 << 18

    /// The most bytes the document may decode for its structure.
    package let budget: Int
    /// The most bytes one stream may decode to (``ParseOptions/maxDecodedStreamSize``).
    package let maxStreamSize: Int
    private let state: Mutex<State>

    private struct State {
        var spent = 0
        /// The object streams decoded so far, by the range of their data in the file.
        var objectStreams: [Range<Int>: ObjectStreamContents] = [:]
        /// The object streams that could not be decoded, with why.
        var failures: [Range<Int>: PDFError] = [:]
    }

    /// A decoder for a document opened with `options`, nothing spent yet.
    package init(options: ParseOptions) {
        budget = max(0, options.maxDecodedStructureSize)
        maxStreamSize = max(0, options.maxDecodedStreamSize)
        state = Mutex(State())
    }

    /// The bytes decoded so far, failed decodings included.
    package var decodedBytes: Int { state.withLock { $0.spent } }

    /// At least the first `prefix` bytes of a cross-reference stream's data (all of it when it is shorter),
    /// charged to the budget; `complete` says whether that is all of it.
    /// - Throws: `.limitExceeded` past the budget or the stream's limit, `.decodeFailed` for corrupt data.
    package func decode(
        _ storage: StreamStorage, prefix: Int, object: PDFReference?, offset: Int?
    ) throws(PDFError) -> (data: [UInt8], complete: Bool) {
        try state.withLock { state throws(PDFError) in
            try Self.decode(
                storage, prefix: prefix, spent: &state.spent, budget: budget, maxStreamSize: maxStreamSize,
                what: "cross-reference stream", object: object, offset: offset)
        }
    }

    /// The decoded start of object stream `reference`: its header and at least `length` bytes (all of them
    /// when it is shorter), from what was decoded before when that is long enough.
    /// - Throws: `.limitExceeded` past the budget or the stream's limit (the same error again for every
    ///   later call), `.decodeFailed` for corrupt data, `.damaged` for a stream that is not an object stream.
    package func objectStream(
        _ stream: PDFStream, reference: PDFReference, atLeast length: Int
    ) throws(PDFError) -> ObjectStreamContents {
        guard stream.dictionary.name(.type) == .objStm || stream.dictionary[.n] != nil else {
            throw PDFError(.damaged, "object stream is not /Type /ObjStm", object: reference)
        }
        let first = stream.dictionary.int(.first) ?? 0
        guard first >= 0 else { throw PDFError(.damaged, "object stream /First is out of range", object: reference) }
        let key = stream.rangeInFile
        return try state.withLock { state throws(PDFError) in
            if let key, let kept = state.objectStreams[key], kept.complete || kept.data.count >= length {
                return kept
            }
            if let key, let failure = state.failures[key] { throw failure }
            // The header (before /First) and a little of the objects, then at least what was asked.
            let (wanted, overflow) = first.addingReportingOverflow(Self.minimumPrefix)
            let prefix = max(overflow ? Int.max : wanted, length)
            do throws(PDFError) {
                let decoded = try Self.decode(
                    stream.storage, prefix: prefix, spent: &state.spent, budget: budget, maxStreamSize: maxStreamSize,
                    what: "object stream", object: reference, offset: nil)
                guard first <= decoded.data.count else {
                    throw PDFError(.damaged, "object stream /First is out of range", object: reference)
                }
                let count = max(0, min(stream.dictionary.int(.n) ?? 0, decoded.data.count / 2 + 1))
                let header = decoded.data.withUnsafeBytes { ObjectStreamIndex.readHeader($0, count: count) }
                let contents = ObjectStreamContents(
                    data: decoded.data, first: first, objects: header, complete: decoded.complete)
                if let key { state.objectStreams[key] = contents }
                return contents
            } catch {
                if let key { state.failures[key] = error }
                throw error
            }
        }
    }

    /// Decodes under the lock: the allowance is what is left of the budget (at most one stream's limit),
    /// and what the filters produced is charged, all of the allowance when they passed it.
    private static func decode(
        _ storage: StreamStorage, prefix: Int, spent: inout Int, budget: Int, maxStreamSize: Int, what: String,
        object: PDFReference?, offset: Int?
    ) throws(PDFError) -> (data: [UInt8], complete: Bool) {
        let left = max(0, budget - spent)
        let allowance = min(left, maxStreamSize)
        let overBudget = PDFError(
            .limitExceeded,
            "\(what) not decoded: the document's decoded cross-reference and object streams would pass "
                + "\(budget) bytes (ParseOptions.maxDecodedStructureSize)", offset: offset, object: object)
        guard left > 0 else { throw overBudget }
        var produced = 0
        defer { spent += produced }
        do throws(PDFError) {
            return try storage.decodePrefix(prefix, maxSize: allowance, produced: &produced)
        } catch {
            guard error.code == .limitExceeded else {
                var error = error
                if error.object == nil { error.object = object }
                throw error
            }
            if left <= maxStreamSize { throw overBudget }
            throw PDFError(
                .limitExceeded,
                "\(what) decodes to more than \(maxStreamSize) bytes (ParseOptions.maxDecodedStreamSize)",
                offset: offset, object: object)
        }
    }
}

/// The decoded start of one object stream (ISO 32000-2 §7.5.7): its data so far, `/First`, and the
/// header's pairs of object number and offset.
package struct ObjectStreamContents: Sendable {
    /// The decoded data from its start: all of it when ``complete``.
    package let data: [UInt8]
    package let first: Int
    package let objects: [(number: Int, offset: Int)]
    /// True when ``data`` is the whole stream.
    package let complete: Bool
    /// The header's offsets, ascending, without repeats.
    private let sortedOffsets: [Int]

    package init(data: [UInt8], first: Int, objects: [(number: Int, offset: Int)], complete: Bool = true) {
        self.data = data
        self.first = first
        self.objects = objects
        self.complete = complete
        var offsets = objects.map(\.offset).sorted()
        var unique: [Int] = []
        unique.reserveCapacity(offsets.count)
        for offset in offsets where unique.last != offset { unique.append(offset) }
        offsets = unique
        sortedOffsets = offsets
    }

    /// The next object's offset after `offset` (where the object at `offset` ends at the latest), nil
    /// for the last one.
    package func offset(after offset: Int) -> Int? {
        var low = 0
        var high = sortedOffsets.count
        while low < high {
            let middle = (low + high) / 2
            if sortedOffsets[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return low < sortedOffsets.count ? sortedOffsets[low] : nil
    }
}
