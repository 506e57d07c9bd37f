import Foundation
import Testing

/// The `imglab` launcher (Sources/imglab-launcher/main.c) execs the x86-64-v3 build or the
/// baseline `imglab-core` beside it. Checked with a copy of the launcher in a folder whose two
/// builds are shell scripts that print their name and arguments.
@Suite("imglab launcher")
struct LauncherTests {
    /// Whether this CPU's first flags line lists every feature the variant may use (the
    /// launcher's list, read here independently).
    static var cpuTakesVariant: Bool {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return false }
        let flags = Set(line.split(separator: " ").map(String.init))
        return ["sse4_2", "popcnt", "avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "movbe", "abm", "aes", "pclmulqdq",
                "rdrand", "fsgsbase", "xsave"].allSatisfy(flags.contains)
    }

    /// A folder with a copy of the launcher and, when asked, stand-ins for the two builds, the
    /// variant's modification time `variantAge` seconds before the core's. A shell writes the
    /// files: a file this multi-threaded test process held open for writing could be inherited by
    /// a child another test forks at that moment, and exec'ing it would then fail with ETXTBSY.
    static func folder(core: Bool = true, variantAge: Int? = nil) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-launcher-\(UUID().uuidString)")
        let now = Int(Date().timeIntervalSince1970)
        func standIn(_ name: String, modified: Int) -> String {
            "printf '#!/bin/sh\\necho \(name) \"$@\"\\n' > \"$d/\(name)\" && chmod 755 \"$d/\(name)\" && touch -d @\(modified) \"$d/\(name)\""
        }
        var steps = ["mkdir -p \"$d\"", "cp \"$1\" \"$d/imglab\""]
        if core { steps.append(standIn("imglab-core", modified: now)) }
        if let age = variantAge { steps.append(standIn("imglab-x86-64-v3", modified: now - age)) }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "d=\"$0\"; " + steps.joined(separator: " && "), dir.path, ImglabRun.executable]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0, "making \(dir.path)")
        return dir
    }

    /// Runs the launcher of `dir` with `arguments` and `environment` added; its status and stdout, stderr.
    static func launch(_ dir: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = dir.appendingPathComponent("imglab")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test("a variant no older than the core runs on a CPU with every feature; its arguments pass through, spaces and all")
    func currentVariantRuns() throws {
        let dir = try Self.folder(variantAge: -10)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try Self.launch(dir, ["info", "a b.png"])
        #expect(run.status == 0)
        #expect(run.out == (Self.cpuTakesVariant ? "imglab-x86-64-v3 info a b.png\n" : "imglab-core info a b.png\n"))
    }

    @Test("the baseline runs when the variant is older than it, when IMGLAB_HARDWARE_VARIANT=baseline, and when there is no variant")
    func baselineRuns() throws {
        let stale = try Self.folder(variantAge: 3600)
        defer { try? FileManager.default.removeItem(at: stale) }
        #expect(try Self.launch(stale, ["diff"]).out == "imglab-core diff\n")
        let fresh = try Self.folder(variantAge: -10)
        defer { try? FileManager.default.removeItem(at: fresh) }
        #expect(try Self.launch(fresh, ["run"], environment: ["IMGLAB_HARDWARE_VARIANT": "baseline"]).out == "imglab-core run\n")
        let none = try Self.folder()
        defer { try? FileManager.default.removeItem(at: none) }
        #expect(try Self.launch(none, []).out == "imglab-core\n")
    }

    @Test("without imglab-core beside it the launcher exits 2 and says what to build")
    func missingCore() throws {
        let dir = try Self.folder(core: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try Self.launch(dir, ["info"])
        #expect(run.status == 2)
        #expect(run.err.hasPrefix("imglab: cannot run \(dir.resolvingSymlinksInPath().path)/imglab-core: No such file or directory"))
    }
}
