import Foundation
import Testing
import ImageCore
import ImageMetrics
import ImageCodecs
@testable import ImageLab
@testable import ImageCorpus
import ImageReports

/// `imglab run --inputs DIR`: a folder of files made into lab cases, judged against the box
/// oracle rendered from each decoded file.
@Suite("Run on a folder of inputs")
struct InputsSessionTests {
    static let corpus = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path

    /// A temporary folder with three corpus sources (PNG, JPEG in a subfolder, 32-bit BMP with a
    /// skipped byte), a file with a PNG signature and nothing decodable after it, and a text file.
    static func makeInputs() throws -> URL {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("imglab-inputs-test-\(UUID().uuidString)")
        try fm.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let sources = URL(fileURLWithPath: corpus).appendingPathComponent("sources")
        try fm.copyItem(at: sources.appendingPathComponent("png-rgba8-colorPatches-48x32.png"), to: dir.appendingPathComponent("patches.png"))
        try fm.copyItem(at: sources.appendingPathComponent("jpeg-444-colorPatches-48x32.jpg"), to: dir.appendingPathComponent("sub/patches.jpg"))
        try fm.copyItem(at: sources.appendingPathComponent("bmp-xrgb32-landscape-48x32.bmp"), to: dir.appendingPathComponent("landscape.bmp"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: dir.appendingPathComponent("broken.png"))
        try Data("not an image".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        return dir
    }

    /// A new empty temporary folder.
    static func emptyFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-inputs-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("the built-in resizer passes every pair of a folder; an undecodable file is skipped with its error, a text file ignored")
    func builtinPasses() throws {
        let dir = try Self.makeInputs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outcome = try InputsSession(inputs: dir.path, reference: Self.corpus, resizer: BuiltinResizer(), threads: 2).run()
        let r = outcome.results
        // 3 images of 48 × 32: orient, fit into 24 × 16, fill 16 × 16, max pixel size 256: 4 pairs each.
        #expect(r.pairs.count == 12)
        #expect(Set(r.pairs.map(\.caseID)) == ["patches.png", "sub/patches.jpg", "landscape.bmp"])
        #expect(r.pairs.contains { $0.pair == "sub/patches.jpg/resize-aspectFit-24x16" })
        #expect(r.pairs.contains { $0.pair == "patches.png/resize-aspectFill-16x16" })
        for p in r.pairs { #expect(p.verdict == .pass, "\(p.pair): \(p.message ?? "")") }
        #expect(r.skipped?.map(\.pair) == ["broken.png"])
        #expect(r.skipped?.first?.reason.hasPrefix("decode: png that cannot be decoded") == true)
        #expect(r.canaries.count == 4, "the four canaries of Corpus/gates.json ran first")
    }

    @Test("--gate judges every pair by the one expression: ssim ≤ 1 by definition, so 'ssim >= 2' fails every pair (canaries included, so the run proceeds); 'ssim >= -1' passes the canaries and stops the run; with --gates it is refused")
    func oneGateForEveryPair() throws {
        let dir = try Self.makeInputs()
        defer { try? FileManager.default.removeItem(at: dir) }
        func lab(_ gate: String, gatesFile: String? = nil) throws -> LabRun {
            LabRun(profile: .quick, corpus: Self.corpus, resizer: BuiltinResizer(), inputs: dir.path, filter: "patches.png/*",
                   threads: 2, gatesFile: gatesFile, gate: try GateExpression(gate))
        }
        let kept = KeptPairs()
        _ = try lab("ssim >= 2").run(into: kept)
        #expect(kept.results.count == 4)
        for p in kept.results {
            #expect(p.verdict == .fail, "\(p.pair)")
            #expect(p.gate?.expression == "ssim >= 2")
        }
        #expect(throws: RunError.self) { try lab("ssim >= -1").run(into: KeptPairs()) }
        #expect(try lab("ssim >= 2", gatesFile: "\(Self.corpus)/gates.json").problem?.contains("--gate") == true)
    }

    @Test("mutants fail on a folder with the diagnosis the gates file's canaries name: swap-rb channel order, argb-as-rgba alpha position")
    func mutantsFailWithTheirDiagnosis() throws {
        let dir = try Self.makeInputs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let swap = try #require(MutantCatalogue.mutant("swap-rb")), argb = try #require(MutantCatalogue.mutant("argb-as-rgba"))
        let swapped = try InputsSession(inputs: dir.path, reference: Self.corpus, resizer: swap.make(BuiltinResizer()),
                                        filter: "patches.png/resize-aspectFit-*", threads: 2).run().results
        #expect(swapped.pairs.count == 1)
        #expect(swapped.pairs.first?.verdict == .fail)
        #expect(swapped.pairs.first?.diagnosis?.bugClass == "channel-order")
        let misread = try InputsSession(inputs: dir.path, reference: Self.corpus, resizer: argb.make(BuiltinResizer()),
                                        filter: "landscape.bmp/resize-aspectFit-*", threads: 2).run().results
        #expect(misread.pairs.first?.verdict == .fail)
        #expect(misread.pairs.first?.diagnosis?.bugClass == "alpha-position")
    }

    @Test("a JPEG thumbnail the contract lets a resizer decode at 1/2 (48 × 32 → 24 × 16: ceil(48/2) = 24, ceil(32/2) = 16; at 1/4 only 12 × 8) is judged against the box oracle in the lossy family; one that needs the full decode (40 × 27) against the kernel-exact oracle")
    func scaledJPEGThumbnailsAreJudgedByTheBoxOracle() throws {
        let dir = try Self.makeInputs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try InputsSession(inputs: dir.path, reference: Self.corpus, resizer: BuiltinResizer(),
                                  operations: [.maxPixelSize(24), .maxPixelSize(40)], filter: "sub/patches.jpg/*", threads: 2).run().results
        let scaled = try #require(r.pairs.first { $0.pair == "sub/patches.jpg/maxPixelSize-24" })
        let full = try #require(r.pairs.first { $0.pair == "sub/patches.jpg/maxPixelSize-40" })
        #expect(scaled.family == "lossy")
        #expect(scaled.verdict == .pass, "\(scaled.message ?? "")")
        #expect(full.family == "kernel")
        #expect(full.verdict == .pass, "\(full.message ?? "")")
        #expect(ScaledDecode.denominator(width: 48, height: 32, target: (24, 16)) == 2)
        #expect(ScaledDecode.denominator(width: 48, height: 32, target: (40, 27)) == 1)
    }

    @Test("a JPEG thumbnail that fails the full decode's oracle passes against the one decoded at the contract's 1/2, labelled; a channel swap fails both")
    func contractScaleRejudges() throws {
        let dir = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Left half a one-pixel checker: at 1/2 libjpeg averages it in encoded values (127.5), the ideal
        // in linear light (187.5). Right half orange, which a channel swap turns blue whatever the oracle.
        var bytes: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 {
                let v: UInt8 = (x + y) % 2 == 0 ? 0 : 255
                bytes += x < 32 ? [v, v, v] : [255, 128, 0]
            }
        }
        let file = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 64, height: 48, format: .rgb8, bytes: bytes)), as: .jpeg,
                                          options: EncodeOptions(jpegQuality: 100, jpegSubsampling: .s444))
        try Data(file).write(to: dir.appendingPathComponent("checker.jpg"))
        let outcome = try InputsSession(inputs: dir.path, reference: Self.corpus, resizer: BuiltinResizer(),
                                        operations: [.maxPixelSize(32)], threads: 2, keepEvidence: true).run()
        let pair = try #require(outcome.results.pairs.first)
        #expect(pair.verdict == .pass, "\(pair.message ?? "")")
        let label = try #require(pair.policy?.first { $0.kind == .thumbnailScaledDecode })
        #expect(label.text.hasPrefix("policy: thumbnail scaled decode (contract): passes against the kernel-exact oracle (lanczos3, linear light) of the file decoded at 1/2"))
        #expect(label.text.contains("against the full decode's oracle: visible.mean"))
        // The pair's page states the label in its facts, as the index does.
        let evidence = try #require(outcome.evidence.first ?? nil)
        let page = try #require(RunReport.page(pair, evidence: evidence, links: []))
        let escaped = label.text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
        #expect(page.contains("<tr><th>policy</th><td>\(escaped)</td></tr>"))
        let swap = try #require(MutantCatalogue.mutant("swap-rb"))
        let mutated = try InputsSession(inputs: dir.path, reference: Self.corpus, resizer: swap.make(BuiltinResizer()),
                                        operations: [.maxPixelSize(32)], threads: 2).run().results
        #expect(mutated.pairs.first?.verdict == .fail)
    }

    @Test("a WebP thumbnail the built-in decodes at 1/2 through libwebp's rescaler fails the full decode's oracle and passes the contract's, labelled",
          .enabled(if: WebPCodec.availability.available, "needs libwebp7 and libwebpdemux2 (apt-get install libwebp-dev)"))
    func webpContractScaleRejudges() throws {
        let dir = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A one-pixel checker: libwebp's rescaler averages it to 127.5 in encoded values, the ideal to 187.5.
        var bytes: [UInt8] = []
        for y in 0..<48 { for x in 0..<64 { let v: UInt8 = (x + y) % 2 == 0 ? 0 : 255; bytes += [v, v, v] } }
        let file = try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 64, height: 48, format: .rgb8, bytes: bytes)), as: .webp)
        try Data(file).write(to: dir.appendingPathComponent("checker.webp"))
        let r = try InputsSession(inputs: dir.path, reference: Self.corpus, resizer: BuiltinResizer(),
                                  operations: [.maxPixelSize(32)], threads: 2).run().results
        let pair = try #require(r.pairs.first)
        #expect(pair.verdict == .pass, "\(pair.message ?? "")")
        let label = try #require(pair.policy?.first { $0.kind == .thumbnailScaledDecode })
        #expect(label.text.contains("of the file decoded at 1/2 by libwebp's rescaler, as the ImageIO thumbnail contract allows"), "\(label.text)")
        #expect(label.text.contains("against the full decode's oracle: ") && label.text.contains("visible.mean"))
    }

    @Test("a JPEG libjpeg had to repair (cut at 80 %) gets no thumbnail pair it may decode scaled: listed as not judged, while its fit-half pair is judged")
    func repairedJPEGThumbnailIsNotJudged() throws {
        let dir = try Self.emptyFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.corpus).appendingPathComponent("sources/jpeg-444-colorPatches-48x32.jpg"))
        try whole.prefix(whole.count * 8 / 10).write(to: dir.appendingPathComponent("cut.jpg"))
        let r = try InputsSession(inputs: dir.path, reference: Self.corpus, resizer: BuiltinResizer(),
                                  operations: [.maxPixelSize(24), .fitHalf], threads: 2).run().results
        #expect(r.pairs.map(\.pair) == ["cut.jpg/resize-aspectFit-24x16"])
        #expect(r.pairs.first?.verdict == .pass)
        let skipped = try #require(r.skipped?.first { $0.pair == "cut.jpg/maxPixelSize-24" })
        #expect(skipped.reason.hasPrefix("not judged: libjpeg repaired this JPEG"))
    }

    @Test("--ops spellings parse to operations sized from the display size; an unknown one is refused")
    func operationList() {
        #expect(InputOperation.parseList("orient,fit-half,fill-square,max-pixel-size-256") == InputOperation.defaults)
        #expect(InputOperation.parseList("fit-half,rotate") == nil)
        #expect(InputOperation.fitHalf.operation(displayWidth: 33, displayHeight: 1) == .resize(width: 16, height: 1, mode: .aspectFit))
        #expect(InputOperation.fillSquare.operation(displayWidth: 48, displayHeight: 32) == .resize(width: 16, height: 16, mode: .aspectFill(anchorX: 0.5, anchorY: 0.5)))
    }
}
