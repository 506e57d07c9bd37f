import Foundation
import Testing
import ImageCore
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// The commands check every output before working (docs/safe-writes.md): a FIFO, a symbolic
/// link, a directory or a device is a usage error (exit 2) naming the path and what it is; an
/// output that is an input is refused unless `--overwrite`; the inputs are intact afterwards.
@Suite("safe writes from the command line")
struct SafeWriteCommandTests {
    /// A folder holding `in.png`, an 8×6 RGB image, and its bytes.
    static func folder() throws -> (dir: String, input: String, bytes: Data) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-safe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let input = dir + "/in.png"
        let pixels = (0..<(8 * 6 * 3)).map { UInt8($0) }
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 8, height: 6, format: .rgb8, bytes: pixels)), as: .png), to: input)
        return (dir, input, try Data(contentsOf: URL(fileURLWithPath: input)))
    }

    @Test("resize and thumbnail onto their own input exit 2 and leave it intact; with --overwrite they replace it")
    func sameFile() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        for command in [["resize", f.input, "--size", "4x3"], ["thumbnail", f.input, "--max-pixel-size", "4"]] {
            let run = try ImglabRun.run(command + ["-o", f.input])
            #expect(run.status == 2, "\(command[0]): \(run.stderr)")
            #expect(run.stderr.contains("--output \(f.input) is the same file as the input \(f.input): add --overwrite to replace it"))
            #expect(FileManager.default.contents(atPath: f.input) == f.bytes)
        }
        // Through a symbolic link to the input: the same file by device and inode.
        try FileManager.default.createSymbolicLink(atPath: f.dir + "/alias.png", withDestinationPath: f.input)
        let viaLink = try ImglabRun.run(["resize", f.dir + "/alias.png", "--size", "4x3", "-o", f.input])
        #expect(viaLink.status == 2 && viaLink.stderr.contains("is the same file as the input"))
        let replaced = try ImglabRun.run(["resize", f.input, "--size", "4x3", "-o", f.input, "--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        let out = try ImageCodecs.decode(contentsOf: f.input)
        #expect((out.width, out.height) == (4, 3))
    }

    @Test("diff --report onto one of the compared images exits 2 and leaves it intact")
    func diffReportOntoInput() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let run = try ImglabRun.run(["diff", f.input, f.input, "--report", f.input])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("refusing to write \(f.input): it is a file, and a report is a folder"), "\(run.stderr)")
        #expect(FileManager.default.contents(atPath: f.input) == f.bytes)
    }

    @Test("a FIFO, a symbolic link and a directory as -o or --report exit 2 naming what they are; nothing is replaced")
    func specialTargets() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let fifo = f.dir + "/pipe.png", link = f.dir + "/link.png", folder = f.dir + "/sub.png"
        #expect(mkfifo(fifo, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: f.dir + "/elsewhere.png")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for (path, kind) in [(fifo, "a FIFO"), (link, "a symbolic link"), (folder, "a directory")] {
            let resize = try ImglabRun.run(["resize", f.input, "--size", "4x3", "-o", path])
            #expect(resize.status == 2, "\(kind): \(resize.stderr)")
            #expect(resize.stderr.contains("refusing to write \(path): it is \(kind)"), "\(resize.stderr)")
            // A report is a folder: an empty directory takes one, the other kinds are refused.
            if kind != "a directory" {
                let diff = try ImglabRun.run(["diff", f.input, f.input, "--report", path])
                #expect(diff.status == 2 && diff.stderr.contains("refusing to write \(path): it is \(kind)"), "\(diff.stderr)")
            }
        }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
        #expect(!FileManager.default.fileExists(atPath: f.dir + "/elsewhere.png"))
        #expect(FileManager.default.contents(atPath: f.input) == f.bytes)
    }

    @Test("a write cut off midway (the file-size limit reached: SIGXFSZ or EFBIG) leaves the previous -o file, --json file and report folder whole")
    func writeCutOffMidway() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        // A 256×256 picture of noise: every output below is far beyond the 2 KiB the limit lets a file reach.
        var state: UInt32 = 12345
        let pixels = (0..<(256 * 256 * 3)).map { _ -> UInt8 in state = state &* 1_664_525 &+ 1_013_904_223; return UInt8(state >> 24) }
        let big = f.dir + "/big.png"
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 256, height: 256, format: .rgb8, bytes: pixels)), as: .png), to: big)
        let old = Data("the previous file, whole".utf8)
        let output = f.dir + "/out.png", json = f.dir + "/out.json", report = f.dir + "/report"
        for path in [output, json] { try old.write(to: URL(fileURLWithPath: path)) }
        let previous = try ImglabRun.run(["diff", f.input, f.input, "--report", report])
        #expect(previous.status == 0, "\(previous.stderr)")
        let page = try Data(contentsOf: URL(fileURLWithPath: report + "/index.html"))
        // Through a shell that limits the size of any file the process writes (`ulimit -f 2`: 1 KiB in dash's
        // 512-byte blocks, 2 KiB in bash's); each command writes its output before anything else of that size.
        func cut(_ args: [String]) throws -> ImglabRun {
            try ImglabRun.run(["-c", "ulimit -f 2; exec \"$0\" \"$@\"", ImglabRun.executable] + args, executable: "/bin/sh")
        }
        let runs = [try cut(["resize", big, "--size", "256x256", "-o", output]),
                    try cut(["diff", big, f.input, "--json", json]),
                    try cut(["diff", big, big, "--report", report])]
        // Killed by SIGXFSZ, or, where the signal is ignored (inherited), the write failing with EFBIG.
        for run in runs {
            #expect(run.status == 128 + SIGXFSZ || (run.status != 0 && run.stderr.contains("File too large")),
                    "cut off by the file-size limit midway: \(run.status) \(run.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == old)
        #expect(try Data(contentsOf: URL(fileURLWithPath: json)) == old)
        #expect(try Data(contentsOf: URL(fileURLWithPath: report + "/index.html")) == page)
        // Without the limit the same commands replace each whole; the killed writers' temporary files are swept.
        #expect(try ImglabRun.run(["resize", big, "--size", "256x256", "-o", output]).status == 0)
        #expect(try ImageCodecs.decode(contentsOf: output).bitmap.width == 256)
        #expect(try ImglabRun.run(["diff", big, big, "--report", report]).status == 0)
        #expect(try ImglabRun.run(["diff", big, f.input, "--json", json]).status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.dir).filter { $0.hasPrefix(".") }.isEmpty)
    }

    @Test("an output name too long for the temporary file beside it is refused before any input is read, for files and report folders")
    func nameTooLongForItsTemporary() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        // 230 bytes: a legal name (≤ 255), but its temporary name would be 260.
        let long = f.dir + "/" + String(repeating: "n", count: 226) + ".png"
        let runs = [try ImglabRun.run(["resize", "/nonexistent/in.png", "--size", "4x3", "-o", long]),
                    try ImglabRun.run(["thumbnail", "/nonexistent/in.png", "--max-pixel-size", "4", "-o", long]),
                    try ImglabRun.run(["diff", "/nonexistent/a.png", "/nonexistent/b.png", "--json", String(long.dropLast(4)) + ".json"]),
                    try ImglabRun.run(["diff", "/nonexistent/a.png", "/nonexistent/b.png", "--report", String(long.dropLast(4))])]
        for run in runs {
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("a name may have at most \(OutputFile.maxNameBytes) bytes"), "\(run.stderr)")
            #expect(!run.stderr.contains("/nonexistent"), "refused before the input is read: \(run.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.dir) == ["in.png"])
    }

    @Test("/dev/null as -o, --report or --json is refused as a character device before any work")
    func deviceTarget() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        var before = stat()
        #expect(lstat("/dev/null", &before) == 0)
        let runs = [try ImglabRun.run(["resize", f.input, "--size", "4x3", "-o", "/dev/null", "--format", "png"]),
                    try ImglabRun.run(["diff", f.input, f.input, "--report", "/dev/null"]),
                    try ImglabRun.run(["run", "--profile", "quick", "--report", "none", "--json", "/dev/null"])]
        for run in runs {
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("refusing to write /dev/null: it is a character device"), "\(run.stderr)")
        }
        var after = stat()
        #expect(lstat("/dev/null", &after) == 0 && after.st_mode & S_IFMT == S_IFCHR && after.st_ino == before.st_ino)
    }

    @Test("a character device made in a temporary folder (as root can) is refused as -o, --report, --json and --report DIR, and stays a device")
    func deviceNodeInTemporaryFolder() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        // The node /dev/null is (major 1, minor 3), made beside the input; where mknod is not
        // permitted, /dev/null itself stands in.
        var node = f.dir + "/null.png"
        if mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) != 0 { node = "/dev/null" }
        var before = stat()
        #expect(lstat(node, &before) == 0 && before.st_mode & S_IFMT == S_IFCHR)
        let runs = [try ImglabRun.run(["resize", f.input, "--size", "4x3", "-o", node, "--format", "png"]),
                    try ImglabRun.run(["thumbnail", f.input, "--max-pixel-size", "4", "-o", node, "--format", "png"]),
                    try ImglabRun.run(["diff", f.input, f.input, "--report", node]),
                    // A JSON file is not named .png (--json refuses a name that names an image): the same device under another name.
                    try ImglabRun.run(["run", "--profile", "quick", "--report", "none", "--json", try Self.alias(node, in: f.dir)]),
                    try ImglabRun.run(["run", "--profile", "quick", "--filter", "png-rgba8-colorPatches-*", "--report", node])]
        for run in runs {
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains("it is a character device"), "\(run.stderr)")
        }
        var after = stat()
        #expect(lstat(node, &after) == 0 && after.st_mode & S_IFMT == S_IFCHR && after.st_rdev == before.st_rdev && after.st_ino == before.st_ino)
        #expect(FileManager.default.contents(atPath: f.input) == f.bytes)
    }

    @Test("a replaced mode-600 output stays 600")
    func keepsMode() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let output = f.dir + "/out.png"
        try ImageCodecs.writeAtomically([0], to: output)
        #expect(chmod(output, 0o600) == 0)
        let run = try ImglabRun.run(["resize", f.input, "--size", "4x3", "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        var info = stat()
        #expect(stat(output, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        #expect(try ImageCodecs.decode(contentsOf: output).width == 4)
    }

    @Test("--json and --junit naming one file is a usage error")
    func twoOutputsOneFile() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let run = try ImglabRun.run(["run", "--profile", "quick", "--report", "none", "--json", f.dir + "/r.json", "--junit", f.dir + "/r.json"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("--json and --junit name the same file, \(f.dir)/r.json"))
        #expect(!FileManager.default.fileExists(atPath: f.dir + "/r.json"))
    }

    @Test("-o - writes the image to standard output, the same bytes as to a file; without --format it is a usage error")
    func standardOutput() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let toFile = try ImglabRun.run(["resize", f.input, "--size", "4x3", "-o", f.dir + "/out.png"])
        #expect(toFile.status == 0, "\(toFile.stderr)")
        let toStdout = try ImglabRun.run(["resize", f.input, "--size", "4x3", "-o", "-", "--format", "png"])
        #expect(toStdout.status == 0, "\(toStdout.stderr)")
        #expect(toStdout.stdoutBytes == FileManager.default.contents(atPath: f.dir + "/out.png"))
        let noFormat = try ImglabRun.run(["thumbnail", f.input, "--max-pixel-size", "4", "-o", "-"])
        #expect(noFormat.status == 2 && noFormat.stderr.contains("cannot tell the format from '-'"), "\(noFormat.stderr)")
        #expect(FileManager.default.contents(atPath: f.input) == f.bytes)
    }

    @Test("an option given twice is a usage error naming it, under either spelling; nothing is written", arguments: [
        ["--size", "4x3", "--size", "2x2"], ["--size", "4x3", "--jpeg-quality", "50", "--jpeg-quality=60"], ["--size", "4x3", "--border", "1", "--transparent-border", "2"],
    ])
    func duplicateOptions(extra: [String]) throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let run = try ImglabRun.run(["resize", f.input, "-o", f.dir + "/out.png"] + extra)
        #expect(run.status == 2)
        #expect(run.stderr.contains("is given 2 times; give it once"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.dir + "/out.png"))
    }

    @Test("file names that are not UTF-8 are read and written byte for byte; the input stays intact")
    func nonUTF8Names() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let dir = Array(f.dir.utf8)
        let input = dir + Array("/caf".utf8) + [0xE9] + Array(".png".utf8)       // Latin-1 "café.png"
        let output = dir + Array("/out-".utf8) + [0xFF, 0xFE] + Array(".png".utf8)
        let moved = (Array(f.input.utf8) + [0]).withUnsafeBufferPointer { from in
            (input + [0]).withUnsafeBufferPointer { to in
                from.withMemoryRebound(to: CChar.self) { f in to.withMemoryRebound(to: CChar.self) { t in rename(f.baseAddress!, t.baseAddress!) } }
            }
        }
        try #require(moved == 0)
        let info = try ImglabRun.run(bytes: [Array("info".utf8), input])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("8×6"))
        let resize = try ImglabRun.run(bytes: [Array("resize".utf8), input, Array("--size".utf8), Array("4x3".utf8), Array("-o".utf8), output])
        #expect(resize.status == 0, "\(resize.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: f.dir)
        #expect(names.count == 2, "the input and one output, under their own names: \(names)")
        let written = (output + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { access($0.baseAddress!, F_OK) } }
        #expect(written == 0, "the output exists under its exact bytes")
        let kept = (input + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { p -> Data? in
            let fd = open(p.baseAddress!, O_RDONLY)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var bytes = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(fd, &bytes, bytes.count)
            return n >= 0 ? Data(bytes[0..<n]) : nil
        } }
        #expect(kept == f.bytes)
        let missing = try ImglabRun.run(bytes: [Array("info".utf8), dir + Array("/no".utf8) + [0xE9]])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such file"), "\(missing.stderr)")
    }

    /// The bytes of a name as JSON carries it (docs/safe-writes.md): U+10FF00 + b is byte b, any
    /// other scalar its UTF-8.
    static func nameBytes(_ name: String) -> [UInt8] {
        name.unicodeScalars.flatMap { s in s.value >= 0x10FF00 ? [UInt8(s.value - 0x10FF00)] : Array(String(s).utf8) }
    }

    @Test("a file name that is not UTF-8 round-trips through diff's JSON by the documented escape: decoded, it names the file on disk")
    func nonUTF8NamesInJSON() throws {
        let f = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: f.dir) }
        let input = Array(f.dir.utf8) + Array("/caf".utf8) + [0xE9, 0xFF] + Array(".png".utf8)
        let renamed = (Array(f.input.utf8) + [0]).withUnsafeBufferPointer { from in
            (input + [0]).withUnsafeBufferPointer { to in
                from.withMemoryRebound(to: CChar.self) { f in to.withMemoryRebound(to: CChar.self) { t in rename(f.baseAddress!, t.baseAddress!) } }
            }
        }
        try #require(renamed == 0)
        let json = f.dir + "/diff.json"
        let diff = try ImglabRun.run(bytes: [Array("diff".utf8), input, input, Array("--json".utf8), Array(json.utf8)])
        #expect(diff.status == 0, "\(diff.stderr)")
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any]
        let comparison = object?["comparison"] as? [String: Any] ?? object
        let name = try #require((comparison?["expected"] as? [String: Any])?["name"] as? String, "\(object ?? [:])")
        #expect(Self.nameBytes(name) == input, "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        let exists = (Self.nameBytes(name) + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { access($0.baseAddress!, F_OK) } }
        #expect(exists == 0, "the decoded name is the file on disk")
    }

    /// A hard link to `node` named `null.json` in `folder` (the device itself when links are refused).
    static func alias(_ node: String, in folder: String) throws -> String {
        let alias = folder + "/null.json"
        return link(node, alias) == 0 ? alias : "/dev/null"
    }
}
