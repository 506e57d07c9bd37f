import Foundation
import Testing
import ImageReports
import ImageCore
import ImageCodecs
@testable import ImageLab
@testable import ImageCorpus

/// The external-resizer adapter: template substitution and quoting, failures with their
/// evidence, the timeout, declared policies (skips, rounding, sRGB oracle).
@Suite("Command resizer")
struct CommandResizerTests {
    static let corpus = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-cmd-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let awkwardName = #"it's a "test" $HOME `id`; rm -rf x & y.png"#

    @Test("quoting: safe words stay bare, anything else is one single-quoted word")
    func quoting() {
        #expect(CommandTemplate.quoted("/tmp/out.png") == "/tmp/out.png")
        #expect(CommandTemplate.quoted("24") == "24")
        #expect(CommandTemplate.quoted("a b") == "'a b'")
        #expect(CommandTemplate.quoted("it's") == #"'it'"'"'s'"#)
        #expect(CommandTemplate.quoted("") == "''")
    }

    @Test("a file name with spaces, quotes, $, backquotes and ; reaches the program as one unchanged argument")
    func quotedValueSurvivesTheShell() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let template = try CommandTemplate("printf '%s' {in} > {out}")
        let out = dir.appendingPathComponent("echo.txt").path
        let command = try template.command(["in": dir.path + "/" + Self.awkwardName, "out": out])
        let run = try ProcessRun.run(command, folder: dir.path, timeout: 10)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == dir.path + "/" + Self.awkwardName)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("y.png").path))
    }

    @Test("a corpus file copied to a folder whose name has spaces and quotes goes through the command and back unchanged")
    func endToEndAwkwardPath() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent(Self.awkwardName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("source file.png").path
        try FileManager.default.copyItem(atPath: Self.corpus + "/sources/png-rgba8-colorPatches-48x32.png", toPath: file)
        let source = try ImageCodecs.decode(contentsOf: file)
        let resizer = CommandResizer(name: "cp", template: try CommandTemplate("cp {in} {out}"))
        let output = try resizer.apply(.orient, to: source, file: file)
        #expect(output.bitmap.width == 48 && output.bitmap.height == 32)
        #expect(output.bitmap.bytes == source.bitmap.bytes)
    }

    @Test("template errors: an unknown {name} and a template without {out} are refused when read; other braces stay")
    func templateErrors() throws {
        #expect(throws: CommandTemplateError.self) { try CommandTemplate("convert {in} -resize {widht}x{height} {out}") }
        #expect(throws: CommandTemplateError.self) { try CommandTemplate("convert {in} x.png") }
        let t = try CommandTemplate("awk '{ print }' {in} ${HOME} {x} > {out}")
        #expect(t.usedPlaceholders == ["in", "x", "out"])
        #expect(try t.command(["in": "a", "x": "1", "out": "b"]) == "awk '{ print }' a ${HOME} 1 > b")
    }

    @Test("a placeholder the operation does not define is an unsupported error naming it")
    func undefinedPlaceholder() throws {
        let t = try CommandTemplate("tool {in} --mode {mode} {out}")
        var values = CommandResizer.values(for: .crop(x: 5, y: 3, width: 20, height: 14), width: 48, height: 32, rounding: .builtin)
        values["in"] = "a.png"; values["out"] = "b.png"
        #expect(throws: ResizerError.unsupported("the template uses {mode}, which crop does not define")) { try t.command(values) }
    }

    @Test("placeholder values: the crop rectangle made integral (origin down, far edges up) and the box of a fill")
    func placeholderValues() {
        // 4.5 + 19.5 = 24 and 2.25 + 13.5 = 15.75 → x 4…24, y 2…16.
        let crop = CommandResizer.values(for: .crop(x: 4.5, y: 2.25, width: 19.5, height: 13.5), width: 48, height: 32, rounding: .builtin)
        #expect([crop["x"], crop["y"], crop["width"], crop["height"]] == ["4", "2", "20", "14"])
        let fill = CommandResizer.values(for: .resize(width: 20, height: 20, mode: .aspectFill(anchorX: 1, anchorY: 1)), width: 48, height: 32, rounding: .builtin)
        #expect([fill["width"], fill["height"], fill["mode"], fill["gravity"], fill["smartcrop"], fill["anchorx"]] == ["20", "20", "aspectFill", "SouthEast", "high", "1"])
        // 48×32 fit in 16×16: exact 16 × 10.67; the declared rule gives outheight.
        let fitFloor = CommandResizer.values(for: .resize(width: 16, height: 16, mode: .aspectFit), width: 48, height: 32, rounding: .floor)
        #expect([fitFloor["outwidth"], fitFloor["outheight"]] == ["16", "10"])
        let fitBuiltin = CommandResizer.values(for: .resize(width: 16, height: 16, mode: .aspectFit), width: 48, height: 32, rounding: .builtin)
        #expect([fitBuiltin["outwidth"], fitBuiltin["outheight"]] == ["16", "11"])
    }

    @Test("a failing command is an error with its exit status and the tail of its stderr")
    func failingCommand() throws {
        let source = try ImageCodecs.decode(contentsOf: Self.corpus + "/sources/png-rgba8-colorPatches-48x32.png")
        let resizer = CommandResizer(name: "broken", template: try CommandTemplate("echo 'tool: cannot read this layout' >&2; exit 3; cp {in} {out}"))
        do {
            _ = try resizer.apply(.orient, to: source, file: Self.corpus + "/sources/png-rgba8-colorPatches-48x32.png")
            Issue.record("the command failed, the adapter did not")
        } catch {
            #expect(error.description.contains("exit status 3"), "\(error)")
            #expect(error.description.contains("tool: cannot read this layout"), "\(error)")
        }
    }

    @Test("a command that exceeds its timeout is killed, with its process group, and reported as timed out")
    func timeout() throws {
        // A member that had not yet started when the timeout fired tests nothing: try again with
        // twice the timeout, so the test waits on the member's start (an event), not on a window.
        var seconds = 1.0
        for _ in 0..<6 {
            if try Self.timeoutKillsGroup(after: seconds) { return }
            seconds *= 2
        }
        Issue.record("the command's background member never started before its timeout, up to \(seconds / 2) s")
    }

    /// Runs a command that outlives a `seconds` timeout with a background member in its process
    /// group; returns false when the member had not started when the timeout fired.
    static func timeoutKillsGroup(after seconds: Double) throws -> Bool {
        let source = try ImageCodecs.decode(contentsOf: Self.corpus + "/sources/png-rgba8-colorPatches-48x32.png")
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A background process of the command's group holds the write end of a FIFO and writes its
        // pid into it. End-of-file on the read end comes when every process holding the write end
        // has exited: reading to it waits exactly until the group is gone, and never ends while a
        // member lives (its `sleep 1000` outlasts any test run).
        let fifo = dir.appendingPathComponent("group").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let template = "sh -c 'echo $$ >&3; exec sleep 1000' 3>\(CommandTemplate.quoted(fifo)) & wait; cp {in} {out}"
        let resizer = CommandResizer(name: "slow", template: try CommandTemplate(template), timeout: seconds)
        do {
            _ = try resizer.apply(.orient, to: source, file: Self.corpus + "/sources/png-rgba8-colorPatches-48x32.png")
            Issue.record("the command should have timed out")
        } catch {
            #expect(error.description.contains("timed out after"), "\(error)")
        }
        var written: [UInt8] = [], ended = false
        var buffer = [UInt8](repeating: 0, count: 64)
        while !ended {
            // 60 s is a ceiling for a hung test, not a wait for anything: end-of-file is immediate once the group is dead.
            var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 60_000) > 0 else { break }
            let n = read(reader, &buffer, buffer.count)
            if n > 0 { written += buffer[..<n] } else if n == 0 { ended = true } else if errno != EINTR && errno != EAGAIN { break }
        }
        guard let pid = Int32(String(decoding: written, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return false
        }
        #expect(ended, "a process of the group outlived the timeout")
        if !ended { kill(pid, SIGKILL) }
        return true
    }

    @Test("no output file, and an output that is not an image, are errors that say so")
    func missingAndUndecodableOutput() throws {
        let file = Self.corpus + "/sources/png-rgba8-colorPatches-48x32.png"
        let source = try ImageCodecs.decode(contentsOf: file)
        let silent = CommandResizer(name: "silent", template: try CommandTemplate("touch {tmp}/elsewhere.png # {in} {out}"))
        #expect(throws: ResizerError.self) { try silent.apply(.orient, to: source, file: file) }
        do { _ = try silent.apply(.orient, to: source, file: file) } catch {
            #expect(error.description.contains("wrote no") && error.description.contains("elsewhere.png"), "\(error)")
        }
        let text = CommandResizer(name: "text", template: try CommandTemplate("echo hello > {out} # {in}"))
        do { _ = try text.apply(.orient, to: source, file: file); Issue.record("text decoded as an image") } catch {
            #expect(error.description.contains("undecodable output"), "\(error)")
        }
    }

    @Test("size rounding rules on exact rationals: floor, ceil, round (ties to even) and the built-in half up")
    func sizeRounding() {
        // 48×32 in 31×31: 32·31/48 = 20.67.
        #expect(SizeRounding.floor.aspectFit(width: 48, height: 32, boxWidth: 31, boxHeight: 31) == (31, 20))
        #expect(SizeRounding.builtin.aspectFit(width: 48, height: 32, boxWidth: 31, boxHeight: 31) == (31, 21))
        // 48×32 in 20×20: 13.33.
        #expect(SizeRounding.ceil.aspectFit(width: 48, height: 32, boxWidth: 20, boxHeight: 20) == (20, 14))
        #expect(SizeRounding.round.aspectFit(width: 48, height: 32, boxWidth: 20, boxHeight: 20) == (20, 13))
        // 48×33 in 24×24: exactly 16.5; ties to even → 16, half up → 17.
        #expect(SizeRounding.round.aspectFit(width: 48, height: 33, boxWidth: 24, boxHeight: 24) == (24, 16))
        #expect(SizeRounding.builtin.aspectFit(width: 48, height: 33, boxWidth: 24, boxHeight: 24) == (24, 17))
        // Cover 48×32 over 20×25 (taller box): width 25·48/32 = 37.5 → floor 37.
        #expect(SizeRounding.floor.aspectCover(width: 48, height: 32, boxWidth: 20, boxHeight: 25) == (37, 25))
        // Never below 1 pixel; max pixel size never enlarges.
        #expect(SizeRounding.floor.aspectFit(width: 1000, height: 1, boxWidth: 10, boxHeight: 10) == (10, 1))
        #expect(SizeRounding.floor.maxPixelSize(width: 48, height: 32, limit: 64) == (48, 32))
    }

    @Test("undeclared operations and containers are skipped with a policy reason; resize modes can be declared one by one")
    func skipReasons() {
        let p = ResizerPolicy(operations: ["orient", "resize:aspectFit"], containers: ["png", "jpeg"])
        #expect(p.skipReason(operation: LabOperation.orient.record, container: "png") == nil)
        #expect(p.skipReason(operation: LabOperation.resize(width: 24, height: 24, mode: .aspectFit).record, container: "jpeg") == nil)
        #expect(p.skipReason(operation: LabOperation.resize(width: 31, height: 17, mode: .scaleToFill).record, container: "png")?.hasPrefix("policy: operation 'resize:scaleToFill' not declared") == true)
        #expect(p.skipReason(operation: LabOperation.crop(x: 5, y: 3, width: 20, height: 14).record, container: "png")?.hasPrefix("policy: operation 'crop'") == true)
        #expect(p.skipReason(operation: LabOperation.orient.record, container: "bmp")?.hasPrefix("policy: container 'bmp' not read") == true)
        #expect(ResizerPolicy.builtin.skipReason(operation: LabOperation.transparentBorder(width: 3).record, container: "gif") == nil)
    }

    /// A 2×1 opaque bitmap, black then white, 16-bit straight RGBA.
    static func blackWhite() -> Bitmap {
        let black: [UInt8] = [0, 0, 0, 0, 0, 0, 0xFF, 0xFF], white: [UInt8] = [UInt8](repeating: 0xFF, count: 8)
        return Bitmap(uncheckedWidth: 2, height: 1, format: .rgba16, bytesPerRow: 16, bytes: black + white)
    }

    static func red16(_ b: Bitmap) -> Int { Int(b.bytes[0]) << 8 | Int(b.bytes[1]) }

    @Test("the declared sRGB oracle averages encoded values: black and white average to code 0.5, linear light to 0.735")
    func declaredOracleLightSpace() throws {
        let placement = try OracleGeometry.placement(of: .resize(width: 1, height: 1, mode: .scaleToFill), width: 2, height: 1)
        let srgb = try DeclaredOracle.render(source: Self.blackWhite(), placement: placement, lightSpace: .srgb)
        let linear = try DeclaredOracle.render(source: Self.blackWhite(), placement: placement, lightSpace: .linear)
        // sRGB: (0 + 1) / 2 = 0.5 → 32767.5 → 32768 (± 1 for the transfer round trip).
        #expect(abs(Self.red16(srgb) - 32768) <= 1, "\(Self.red16(srgb))")
        // Linear: light (0 + 1) / 2 = 0.5, encoded 1.055 · 0.5^(1/2.4) − 0.055 = 0.735357 → 48192.
        #expect(abs(Self.red16(linear) - 48192) <= 1, "\(Self.red16(linear))")
        #expect(srgb.bytes[6] == 0xFF && srgb.bytes[7] == 0xFF)
    }

    @Test("a declared rounding rule sets the expected size of the oracle; sRGB always renders, the built-in rule never")
    func declaredPlan() throws {
        let fit = LabOperation.resize(width: 16, height: 16, mode: .aspectFit)
        let floor = try DeclaredOracle.plan(fit, width: 48, height: 32, lightSpace: .linear, rounding: .floor)
        #expect(floor.render && floor.placement.width == 16 && floor.placement.height == 10)
        let builtin = try DeclaredOracle.plan(fit, width: 48, height: 32, lightSpace: .linear, rounding: .builtin)
        #expect(!builtin.render && builtin.placement.height == 11)
        let srgb = try DeclaredOracle.plan(.orient, width: 48, height: 32, lightSpace: .srgb, rounding: .builtin)
        #expect(srgb.render && srgb.placement.width == 48)
        // An enlargement keeps the committed oracle under an sRGB declaration, and says so.
        let enlarge = try DeclaredOracle.plan(.resize(width: 96, height: 64, mode: .scaleToFill), width: 48, height: 32, lightSpace: .srgb, rounding: .builtin)
        #expect(!enlarge.render && enlarge.enlargingKept)
        // A rule that agrees with the built-in one on this size renders nothing.
        let ceil = try DeclaredOracle.plan(fit, width: 48, height: 32, lightSpace: .linear, rounding: .ceil)
        #expect(!ceil.render)
    }

    @Test("a run skips the undeclared pairs, lists them with their reason and counts them apart from pass/fail/error")
    func runSkips() throws {
        let resizer = CommandResizer(name: "cp-orient", template: try CommandTemplate("cp {in} {out}"),
                                     policy: ResizerPolicy(operations: ["orient"]))
        let runner = LabRunner(corpus: Self.corpus, resizer: resizer, gates: try GateBook.load(corpus: Self.corpus),
                               selection: try RunSelection(filter: "png-rgba8-colorPatches-48x32", shardIndex: 1, shardCount: 1), threads: 2)
        let r = try runner.run().results
        let manifest = try LabRunner.manifest(corpus: Self.corpus)
        let operations = try #require(manifest.cases.first { $0.id == "png-rgba8-colorPatches-48x32" }).operations
        #expect(r.pairs.map(\.operation) == ["orient"])
        #expect(r.pairs.first?.verdict == .pass)
        #expect(r.summary.skipped == operations.count - 1)
        #expect(r.skipped?.count == operations.count - 1)
        #expect(r.skipped?.allSatisfy { $0.reason.hasPrefix("policy: operation") } == true)
        #expect(r.exitStatus == 0)

        // JUnit: the skipped pairs are <skipped> test cases with their reason, counted as such.
        let xml = JUnitReport.xml(r)
        #expect(xml.contains("skipped=\"\(operations.count - 1)\""))
        #expect(xml.components(separatedBy: "<skipped message=\"policy: operation").count - 1 == operations.count - 1)
        #expect(xml.contains("tests=\"\(operations.count)\""))
        // The report's index lists them in their own section, with the declared policies.
        let index = RunReport.index(r, links: [:])
        #expect(index.contains("<section id=\"skipped\">"))
        #expect(index.contains("declared policies: <code>"))
        #expect(index.components(separatedBy: "<td><code>png-rgba8-colorPatches-48x32/").count - 1 == operations.count - 1)
    }

    @Test("a resizer that declares it does not orient is fed the upright pixels as a PNG, and the pair is labelled")
    func orientationPolicy() throws {
        let dir = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("inputs.txt").path
        let template = try CommandTemplate("printf '%s\\n' {in} >> \(CommandTemplate.quoted(log)); cp {in} {out}")
        let gates = try GateBook.load(corpus: Self.corpus)
        let manifest = try LabRunner.manifest(corpus: Self.corpus)
        let rotated = try #require(manifest.cases.first { $0.container == "png" && $0.orientation == 6 && $0.frames == 1 })
        let selection = try RunSelection(filter: rotated.id + "/orient", shardIndex: 1, shardCount: 1)
        for applies in [true, false] {
            try? FileManager.default.removeItem(atPath: log)
            let resizer = CommandResizer(name: "cp", template: template, policy: ResizerPolicy(appliesOrientation: applies))
            let r = try LabRunner(corpus: Self.corpus, resizer: resizer, gates: gates, selection: selection, threads: 1).run().results
            let fed = try String(contentsOfFile: log, encoding: .utf8).trimmingCharacters(in: .newlines)
            if applies {
                #expect(fed == Self.corpus + "/" + rotated.file)
                #expect(r.pairs.first?.policy == nil)
            } else {
                #expect(fed.hasSuffix("/in.png") && !fed.hasPrefix(Self.corpus))
                #expect(r.pairs.first?.policy?.first?.text.hasPrefix("policy: orientation not applied") == true)
                // The upright PNG copied back is the upright picture: it passes the exact-copy gate.
                #expect(r.pairs.first?.verdict == .pass, "\(r.pairs.first?.message ?? "")")
            }
        }
    }
}
