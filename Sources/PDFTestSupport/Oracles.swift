public import Foundation

/// Runs the programs no one here wrote (qpdf, pdftotext …) and tells where test inputs are.
public enum Oracle {
    /// The result of running a program.
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var errors: String
        public var outputData: Data
    }

    /// Runs `program` (looked up on the PATH) with `arguments`.
    public static func run(_ program: String, _ arguments: [String], timeout: Double = 60) throws -> Result {
        guard let executable = which(program) else { throw MissingProgram(name: program) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        // A program still running after `timeout` seconds is killed (its pipes then close).
        let running = process
        let pid = process.processIdentifier
        let watchdog = Thread {
            let end = Date().addingTimeInterval(timeout)
            while running.isRunning, Date() < end { Thread.sleep(forTimeInterval: 0.05) }
            if running.isRunning { kill(pid, SIGKILL) }
        }
        watchdog.start()
        // Read both pipes while the program runs so a full pipe cannot block it.
        nonisolated(unsafe) var errorData = Data()
        let errorReader = Thread { errorData = readAll(errorPipe.fileHandleForReading.fileDescriptor) }
        errorReader.start()
        let outputData = readAll(outputPipe.fileHandleForReading.fileDescriptor)
        process.waitUntilExit()
        while !errorReader.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self), outputData: outputData)
    }

    /// Reads a descriptor to its end, retrying when a signal interrupts a read (Foundation's
    /// `readDataToEndOfFile` traps on EINTR).
    public static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// The full path of `program` on the PATH, or nil.
    public static func which(_ program: String) -> String? {
        if program.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// `qpdf --check`: exit status 0 (clean), 2 (errors) or 3 (warnings), and its messages.
    public static func qpdfCheck(_ path: String, password: String? = nil) throws -> Result {
        try run("qpdf", (password.map { ["--password=\($0)"] } ?? []) + ["--check", path])
    }

    /// Encrypts `input` into `output` with `qpdf --encrypt USER OWNER ARGUMENTS --`; throws when qpdf fails.
    /// `--allow-weak-crypto` in `arguments` is moved before `--encrypt`, where qpdf wants it.
    public static func qpdfEncrypt(
        _ input: String, _ output: String, user: String, owner: String, _ arguments: [String]
    ) throws {
        let weak = arguments.filter { $0 == "--allow-weak-crypto" }
        let options = arguments.filter { $0 != "--allow-weak-crypto" }
        let result = try run("qpdf", weak + ["--encrypt", user, owner] + options + ["--", input, output])
        guard result.status == 0 || result.status == 3 else {
            throw OracleFailure(message: "qpdf --encrypt failed: \(result.output)\(result.errors)")
        }
    }

    /// `qpdf --show-npages`.
    public static func qpdfPageCount(_ path: String, password: String? = nil) throws -> Int? {
        let result = try run("qpdf", (password.map { ["--password=\($0)"] } ?? []) + ["--show-npages", path])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// qpdf's JSON view (version 2) of every object, keyed `obj:N G R` plus `trailer`.
    public static func qpdfObjects(_ path: String, password: String? = nil) throws -> [String: Any] {
        let result = try run(
            "qpdf", (password.map { ["--password=\($0)"] } ?? []) + ["--json=2", "--json-key=qpdf", path])
        // qpdf copies some bytes as they are; make the JSON valid UTF-8 before parsing it.
        let sanitized = Data(String(decoding: result.outputData, as: UTF8.self).utf8)
        guard let root = try JSONSerialization.jsonObject(with: sanitized) as? [String: Any],
            let list = root["qpdf"] as? [Any], list.count > 1, let objects = list[1] as? [String: Any]
        else { throw OracleFailure(message: "qpdf --json gave no objects: \(result.errors)") }
        return objects
    }

    /// The value qpdf's JSON gives for the document information entry `key` (e.g. "u:Title text").
    public static func qpdfInfoValue(_ path: String, key: String, password: String? = nil) throws -> String? {
        let objects = try qpdfObjects(path, password: password)
        guard let trailer = (objects["trailer"] as? [String: Any])?["value"] as? [String: Any],
            let info = trailer["/Info"] as? String,
            let dictionary = (objects["obj:" + info] as? [String: Any])?["value"] as? [String: Any]
        else { return nil }
        return dictionary["/" + key] as? String
    }

    /// pypdf's reading of the form's values: fully qualified name → `/V` as text (names without
    /// their slash, arrays joined with "|"); terminal fields only.
    public static func pypdfFieldValues(_ path: String, password: String? = nil) throws -> [String: String] {
        let script = """
            import json, sys, pypdf
            r = pypdf.PdfReader(sys.argv[1])
            if r.is_encrypted: r.decrypt(sys.argv[2])
            fields = r.get_fields() or {}
            out = {}
            for name, field in fields.items():
                if any(other.startswith(name + ".") for other in fields): continue
                v = field.get("/V")
                if v is None: continue
                v = v.get_object() if hasattr(v, "get_object") else v
                if isinstance(v, list): out[name] = "|".join(str(x) for x in v)
                elif isinstance(v, pypdf.generic.NameObject): out[name] = str(v)[1:]
                else: out[name] = str(v)
            print(json.dumps(out, ensure_ascii=False))
            """
        let result = try run("python3", ["-c", script, path, password ?? ""])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: String]
        else { throw OracleFailure(message: "pypdf failed: \(result.errors)") }
        return object
    }

    /// The text MuPDF extracts from every page (`mutool draw -F txt`), which includes what widget
    /// appearances draw.
    public static func mutoolText(_ path: String, page: Int? = nil, password: String? = nil) throws -> String {
        let result = try run(
            "mutool",
            ["draw", "-q", "-F", "txt", "-o", "-"] + (password.map { ["-p", $0] } ?? []) + [path]
                + (page.map { [String($0)] } ?? []))
        guard result.status == 0 else { throw OracleFailure(message: "mutool draw failed: \(result.errors)") }
        return result.output
    }

    public struct MissingProgram: Error, CustomStringConvertible {
        public var name: String
        public var description: String { "\(name) is not installed (run scripts/install-deps test)" }
    }

    public struct OracleFailure: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}

/// Where test inputs live.
public enum TestPaths {
    /// The repository root (found from this file's path).
    public static let repository: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `Tests/Fixtures/<area>/<name>`.
    public static func fixture(_ area: String, _ name: String) -> String {
        "\(repository)/Tests/Fixtures/\(area)/\(name)"
    }

    /// The shared corpus of real-world PDFs, or nil (tests that need it are then skipped: see
    /// ``Requirement/corpus``). `AUTOGRAPH_CORPUS` overrides the default `../shared/corpus`.
    public static let corpus: String? = {
        let path =
            ProcessInfo.processInfo.environment["AUTOGRAPH_CORPUS"]
            ?? URL(fileURLWithPath: repository).deletingLastPathComponent().appendingPathComponent("shared/corpus").path
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? path : nil
    }()

    /// The executable product `name` of this package (`StoreCrashProbe`) built next to the test
    /// binary (`.build/<config>/`, the binary perhaps inside an `.xctest` bundle), or nil.
    public static func builtProduct(_ name: String) -> String? {
        var directories: [String] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append((executable as NSString).deletingLastPathComponent)
        }
        directories.append(((CommandLine.arguments.first ?? "") as NSString).deletingLastPathComponent)
        if let path = Bundle.main.executablePath { directories.append((path as NSString).deletingLastPathComponent) }
        for directory in directories {
            // the test binary may sit inside an .xctest bundle: look up to three levels above
            var current = directory
            for _ in 0..<4 {
                let candidate = current + "/" + name
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                current = (current as NSString).deletingLastPathComponent
            }
        }
        return nil
    }

    /// A new empty directory under the system's temporary directory.
    public static func temporaryDirectory(_ label: String = "autograph") throws -> String {
        let path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
