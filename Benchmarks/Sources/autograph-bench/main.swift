import Glibc

// autograph-bench: Autograph beside qpdf, pikepdf, pypdf, pyHanko, sha256sum, pdfsig, mutool and
// pdftoppm; see Benchmarks/README.md.

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Progress.note("autograph-bench: \(error)")
    exit(64)
}

switch options.mode {
case .help:
    print(Options.usage)
case .openOnly(let path, let password):
    exit(BigFileBench.openOnly(path: path, password: password))
case .corpusWorker(let list, let rounds):
    exit(CorpusWorker.main(listPath: list, rounds: rounds, workload: .corpus))
case .formsWorker(let list, let rounds):
    exit(CorpusWorker.main(listPath: list, rounds: rounds, workload: .forms))
case .signWorker(let arguments):
    exit(await SignWorker.main(arguments))
case .signPhases(let path, let p12, let password, let output):
    exit(await SignWorker.phases(path: path, p12: p12, password: password, output: output))
case .renderWorker(let list, let dpi):
    exit(await RenderWorker.main(listPath: list, dpi: dpi))
case .pkcs11Worker(let arguments):
    exit(await PKCS11Worker.main(arguments))
case .cscWorker(let arguments):
    exit(await CSCWorker.main(arguments))
case .bench:
    do {
        try Bench(options: options, environment: try BenchEnvironment.current()).run()
    } catch {
        Progress.note("autograph-bench: \(error)")
        exit(1)
    }
}
