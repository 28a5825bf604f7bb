import Foundation
import PackagePlugin

/// Embeds the web viewer's files (Web/ at the package root) in PDFWeb at build time, so the
/// repository holds them once and a change to them is rebuilt like any source.
@main
struct EmbedWebAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "Web")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: web, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where !url.hasDirectoryPath { inputs.append(url) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding the web viewer's files",
                executable: try context.tool(named: "EmbedWebAssets").url,
                arguments: [web.path, output.path], inputFiles: inputs, outputFiles: [output])
        ]
    }
}
