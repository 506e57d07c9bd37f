import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `imglab` executable as a child process and reports its exit status, output
/// and peak memory. The peak is the child's own `VmHWM`, which it prints when
/// `IMGLAB_REPORT_PEAK_MEMORY` is set: a parent's `wait4` rusage would include the memory the
/// child shared with this (large) test process before `exec`.
struct ImglabRun {
    var status: Int32
    var stdout: String
    /// Standard output as bytes (for `-o -`).
    var stdoutBytes: Data
    var stderr: String
    /// Peak resident set size of the child, in MiB (infinity when it did not report one).
    var peakRSSMiB: Double

    /// The executable beside the test bundle (`swift build --build-tests` builds it there).
    static var executable: String {
        if let env = ProcessInfo.processInfo.environment["IMGLAB_BIN"] { return env }
        let dir = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("imglab").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.appendingPathComponent(".build/debug/imglab").path
    }

    /// Runs `imglab args…` with extra environment variables; output goes through temporary
    /// files to avoid pipe deadlocks.
    static func run(_ args: [String], environment extra: [String: String] = [:], executable exe: String = executable,
                    in folder: String? = nil) throws -> ImglabRun {
        try run(bytes: args.map { Array($0.utf8) }, environment: extra, executable: exe, in: folder)
    }

    /// Runs `imglab` with arguments given as raw bytes (which need not be UTF-8), from `folder`
    /// (the test's working folder when `nil`).
    static func run(bytes args: [[UInt8]], environment extra: [String: String] = [:], executable exe: String = executable,
                    in folder: String? = nil) throws -> ImglabRun {
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: exe, NSLocalizedDescriptionKey: "imglab is not built at \(exe): run 'swift build --build-tests' first"])
        }
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let outPath = tmp.appendingPathComponent("out").path, errPath = tmp.appendingPathComponent("err").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // From `folder`: through a shell that changes into it and execs imglab (Glibc does not export posix_spawn's chdir action).
        let launch = folder.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0].map { Array($0.utf8) } } ?? []
        let program = folder == nil ? exe : "/bin/sh"
        let argv = (launch + [Array(exe.utf8)] + args).map { bytes in (bytes + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } } } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var environment = ProcessInfo.processInfo.environment
        environment["IMGLAB_REPORT_PEAK_MEMORY"] = "1"
        // Tests run under GitHub Actions too: a command adds CI output only where a test asks for it.
        environment["GITHUB_ACTIONS"] = nil
        environment["GITHUB_STEP_SUMMARY"] = nil
        environment.merge(extra) { _, new in new }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = (status & 0x7F) == 0
        // Lossy: a message naming a file whose name is not UTF-8 holds that name's bytes.
        let stderr = FileManager.default.contents(atPath: errPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var peak = Double.infinity
        for line in stderr.split(separator: "\n") where line.hasPrefix("imglab: peak memory ") {
            let words = line.split(separator: " ")
            if words.count >= 4, let kib = Double(words[3]) { peak = kib / 1024 }
        }
        return ImglabRun(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
                         stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                         stdoutBytes: FileManager.default.contents(atPath: outPath) ?? Data(),
                         stderr: stderr, peakRSSMiB: peak)
    }
}
