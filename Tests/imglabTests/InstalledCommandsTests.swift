import Foundation
import Testing
import ImageCore
import ImageCodecs

/// imglab as a user has it: the built programs copied into a folder on PATH, run from an empty
/// folder with nothing of this repository beside them. Every command works, at once or after the
/// one command its error message names (issue 31).
@Suite("Installed imglab, run from an empty folder", .serialized)
struct InstalledCommandsTests {
    /// A folder holding copies of the built programs, an empty working folder, a cache folder.
    struct Installation {
        let root: String
        var bin: String { root + "/bin" }
        var work: String { root + "/work" }
        var environment: [String: String] {
            ["PATH": bin + ":/usr/bin:/bin", "IMGLAB_CACHE_DIR": root + "/cache", "HOME": root + "/home"]
        }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-installed-\(UUID().uuidString)").path
            let built = URL(fileURLWithPath: ImglabRun.executable).deletingLastPathComponent().path
            for folder in [bin, work, root + "/home"] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            // A shell copies the programs (cp -p keeps their times, which the launcher compares): a file this
            // multi-threaded process wrote itself could leave a write descriptor in another test's child, and
            // executing it would then fail with ETXTBSY.
            let programs = ["imglab", "imglab-core", "imglab-x86-64-v3", "imglab-measure"].filter { FileManager.default.isExecutableFile(atPath: built + "/" + $0) }
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "from=$0; to=$1; shift; for p in \"$@\"; do cp -p \"$from/$p\" \"$to/$p\" || exit 1; done", built, bin] + programs
            try shell.run()
            shell.waitUntilExit()
            try #require(shell.terminationStatus == 0, "copying \(programs) from \(built)")
            let copied = programs
            try #require(copied.contains("imglab") && copied.contains("imglab-core"), "the built programs are not beside \(ImglabRun.executable)")
        }

        func run(_ args: [String]) throws -> ImglabRun {
            try ImglabRun.run(args, environment: environment, executable: bin + "/imglab", in: work)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// A 64 × 48 RGB PNG: a gradient with the given red.
    static func writeImage(_ path: String, red: UInt8) throws {
        var bytes: [UInt8] = []
        for y in 0..<48 { for x in 0..<64 { bytes += [red, UInt8(x * 4), UInt8(y * 5)] } }
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 64, height: 48, format: .rgb8, bytes: bytes)), as: .png), to: path)
    }

    @Test("from an empty folder with only the programs on PATH: --version, run, run --inputs, selftest, reproduce, league, bless, diff, corpus and merge work")
    func everyCommandFromAnEmptyFolder() throws {
        let installed = try Installation()
        defer { installed.remove() }

        let version = try installed.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("imglab 0."), "\(version.stdout)\(version.stderr)")

        // run: no ./Corpus, so the quick corpus is generated into the cache, saying so.
        let run = try installed.run(["run", "--filter", "png-rgba8-colorPatches*", "--report", "Reports/first", "--json", "first.json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("generated the quick corpus into \(installed.root)/cache/"), "\(run.stderr)")
        for file in ["Reports/first/index.html", "Reports/first/results.json", "Reports/first/junit.xml", "first.json"] {
            #expect(FileManager.default.fileExists(atPath: installed.work + "/" + file), "\(file) is missing")
        }
        let again = try installed.run(["run", "--filter", "png-rgba8-colorPatches*", "--report", "Reports/first"])
        #expect(again.status == 0 && again.stderr.contains("using the quick corpus"), "\(again.stdout)\(again.stderr)")

        // run --inputs: the user's own images.
        try FileManager.default.createDirectory(atPath: installed.work + "/photos", withIntermediateDirectories: true)
        try Self.writeImage(installed.work + "/photos/a.png", red: 200)
        let inputs = try installed.run(["run", "--inputs", "photos", "--ops", "fit-half", "--report", "none"])
        #expect(inputs.status == 0 && inputs.stdout.contains("1 pairs: 1 pass"), "\(inputs.stdout)\(inputs.stderr)")
        // A failing run of them names the gates file that judged it (the reference corpus's), which exists.
        let failing = try installed.run(["run", "--inputs", "photos", "--ops", "fit-half", "--resizer", "mutant:swap-rb", "--report", "none"])
        let named = failing.stdout.components(separatedBy: "A bound is a reviewed claim, in ").dropFirst().first?
            .components(separatedBy: ":\n").first
        let exists = named.map { FileManager.default.fileExists(atPath: $0.hasPrefix("/") ? $0 : installed.work + "/" + $0) }
        #expect(failing.status == 1 && exists == true, "\(failing.stdout)")

        // selftest and reproduce use the cached corpus and the built-in gates.
        let selftest = try installed.run(["selftest", "--mutant", "swap-rb", "--report", "none"])
        #expect(selftest.status == 0 && selftest.stdout.contains("PASS"), "\(selftest.stdout.suffix(600))\(selftest.stderr)")
        let reproduce = try installed.run(["reproduce", "pink-tint", "--report", "none"])
        #expect(reproduce.status == 0, "\(reproduce.stdout)\(reproduce.stderr)")

        // league: the built-in configs, imglab's own command line found on PATH.
        let league = try installed.run(["league", "--resizer", "builtin", "--resizer", "imglab-cli", "--filter", "png-rgba8-colorPatches*/resize-aspectFit-*", "--report", "none"])
        #expect(league.status == 0 && league.stdout.contains("imglab-cli"), "\(league.stdout)\(league.stderr)")
        #expect(!league.stdout.contains("could not be judged"), "\(league.stdout)")

        // bless keeps goldens beside a corpus of the user's: it names the command that makes one.
        let refused = try installed.run(["bless", "--filter", "png-rgba8-colorPatches*"])
        #expect(refused.status == 2 && refused.stderr.contains("imglab corpus --out Corpus"), "\(refused.stderr)")
        let corpus = try installed.run(["corpus", "--out", "Corpus"])
        #expect(corpus.status == 0, "\(corpus.stdout)\(corpus.stderr)")
        #expect(FileManager.default.fileExists(atPath: installed.work + "/Corpus/gates.json"))
        let check = try installed.run(["corpus", "--check", "--out", "Corpus"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let bless = try installed.run(["bless", "--filter", "png-rgba8-colorPatches*"])
        #expect(bless.status == 0 && bless.stdout.contains("golden(s) added"), "\(bless.stdout)\(bless.stderr)")

        // diff of two files, and merge of a run's results.
        try Self.writeImage(installed.work + "/b.png", red: 90)
        let diff = try installed.run(["diff", "photos/a.png", "b.png", "--gate", "visible.max <= 1"])
        #expect(diff.status == 1 && diff.stdout.contains("visible.max"), "\(diff.stdout)\(diff.stderr)")
        let merge = try installed.run(["merge", "first.json", "--report", "none"])
        #expect(merge.status == 0, "\(merge.stdout)\(merge.stderr)")
    }
}
