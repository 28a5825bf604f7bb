/// One tool's runs over the corpus, one process per file and round (the render and text steps).
struct ToolRuns {
    var name: String
    /// Per file: the seconds of each round the tool completed the file in.
    var seconds: [[Double]]
    /// How many runs ended with each exit code (negative: killed by that signal).
    var exitCodes: [Int32: Int] = [:]
    /// Why the tool did not complete a file (the first round it failed in), by file index.
    var failures: [Int: String] = [:]
    /// Files it timed out on: not run again in later rounds.
    var timedOut: Set<Int> = []
    /// The size of what it wrote for each file (the last round), by file index.
    var outputBytes: [Int: Int] = [:]
    /// The slowest run of each file that timed out or failed, by file index (for the slow lists).
    var failedSeconds: [Int: Double] = [:]

    init(name: String, files: Int) {
        self.name = name
        seconds = Array(repeating: [], count: files)
    }

    /// True when the tool completed file `index` in every one of `rounds`.
    func completed(_ index: Int, rounds: Int) -> Bool { failures[index] == nil && seconds[index].count == rounds }
    /// The median of the file's rounds.
    func fileSeconds(_ index: Int) -> Double { median(seconds[index]) ?? 0 }
}

/// Tools compared over the files all of them completed in every round.
protocol ToolComparison {
    var rounds: Int { get }
    /// The files every available tool completed in every round.
    var measured: [Int] { get }
}

extension ToolComparison {
    /// The median over rounds of the tool's total over `measured`.
    func total(_ tool: ToolRuns?) -> Double? {
        guard let tool, !measured.isEmpty else { return nil }
        return median((0..<rounds).map { round in measured.reduce(0) { $0 + tool.seconds[$1][round] } })
    }

    /// The median over `measured` of the tool's per-file median.
    func medianPerFile(_ tool: ToolRuns?) -> Double? {
        guard let tool else { return nil }
        return median(measured.map { tool.fileSeconds($0) })
    }

    func ratio(_ ours: Double?, _ peer: Double?) -> Double? {
        guard let ours, let peer, peer > 0 else { return nil }
        return ours / peer
    }
}
