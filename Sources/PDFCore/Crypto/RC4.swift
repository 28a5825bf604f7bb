/// The RC4 stream cipher (ISO 32000-2 §7.6.3, revisions 2–4). OpenSSL 3 keeps RC4 in its legacy
/// provider only, so it is implemented here; it is a few lines and used only to read old files.
package struct RC4 {
    private var state: [UInt8]
    private var i: UInt8 = 0
    private var j: UInt8 = 0

    package init(key: [UInt8]) {
        state = (0...255).map { UInt8($0) }
        guard !key.isEmpty else { return }
        var j: UInt8 = 0
        for i in 0..<256 {
            j = j &+ state[i] &+ key[i % key.count]
            state.swapAt(i, Int(j))
        }
    }

    /// Encrypts or decrypts (the same operation) `data`.
    package mutating func process(_ data: [UInt8]) -> [UInt8] {
        var output = data
        state.withUnsafeMutableBufferPointer { s in
            for index in output.indices {
                i = i &+ 1
                j = j &+ s[Int(i)]
                s.swapAt(Int(i), Int(j))
                output[index] ^= s[Int(s[Int(i)] &+ s[Int(j)])]
            }
        }
        return output
    }

    package static func process(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var cipher = RC4(key: key)
        return cipher.process(data)
    }
}
