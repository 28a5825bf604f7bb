import Foundation

/// A Python server of `Tests/Scripts/` on 127.0.0.1 for the tests of what Autograph sends over HTTP
/// (the HTTP client, a host's backend): started with its arguments, it prints `PORT n` once it
/// listens and exits when its standard input closes — when ``stop()`` closes it, or when the test
/// process ends, however it ends.
public final class LoopbackServer: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    private let process: Process
    private let input: Pipe

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// Starts `Tests/Scripts/<script>` with `arguments` and waits (off Swift's pool) for its port.
    /// - Throws: `Oracle.MissingProgram` without python3; an error when the script does not print
    ///   its port within 30 s.
    public static func start(_ script: String, _ arguments: [String] = []) async throws -> LoopbackServer {
        guard let python = Oracle.which("python3") else { throw Oracle.MissingProgram(name: "python3") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", TestPaths.repository + "/Tests/Scripts/" + script] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let descriptor = output.fileHandleForReading.fileDescriptor
        let line: String = await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: Self.firstLine(descriptor, process: process))
            }.start()
        }
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw StartFailure(script: script, line: line)
        }
        return LoopbackServer(port: port, process: process, input: input)
    }

    private init(port: Int, process: Process, input: Pipe) {
        self.port = port
        self.process = process
        self.input = input
    }

    deinit { stop() }

    /// Closes its standard input (it exits) and stops it if it has not gone within a second.
    public func stop() {
        try? input.fileHandleForWriting.close()
        let process = self.process
        Thread {
            let end = Date().addingTimeInterval(1)
            while process.isRunning, Date() < end { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { process.terminate() }
        }.start()
    }

    /// The first line the script prints, within 30 s ("" when it exits or stays silent).
    private static func firstLine(_ descriptor: Int32, process: Process) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        let end = Date().addingTimeInterval(30)
        while Date() < end {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 || errno == EINTR else { break }
            guard poller.revents != 0 else {
                if !process.isRunning { break }
                continue
            }
            guard read(descriptor, &byte, 1) == 1 else { break }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The script did not say its port.
    public struct StartFailure: Error, CustomStringConvertible {
        /// The script.
        public var script: String
        /// What it printed first.
        public var line: String
        public var description: String { "\(script) did not print its port (it printed \"\(line)\")" }
    }
}
