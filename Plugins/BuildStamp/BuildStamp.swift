import Foundation
import PackagePlugin

/// Stamps the `imglab` command with the commit it was built from: before every build it runs
/// scripts/build-stamp, which writes `BuildStamp.swift` (the commit, and whether the tree had
/// changes) only when that text changes, so an unchanged tree recompiles nothing.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("stamp")
        let package = context.package.directoryURL
        return [.prebuildCommand(displayName: "Stamping imglab with its commit",
                                 executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: [package.appendingPathComponent("scripts/build-stamp").path, package.path, output.path],
                                 outputFilesDirectory: output)]
    }
}
