import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// Decoder behaviour: scaling, limits, unsupported processes, corrupt input, and what the
/// external corpus's manifest documents about CMYK, EXIF and ICC.
@Suite("JPEG decoder")
struct JPEGDecoderTests {
    /// A baseline (or progressive) RGB JPEG of a gradient, made by the encoder.
    static func jpeg(width: Int, height: Int, progressive: Bool = false, subsampling: ChromaSubsampling = .s420) throws -> [UInt8] {
        let bitmap = try JPEGRoundTripTests.bitmap(.rgb8, width: width, height: height, JPEGRoundTripTests.gradient)
        return try JPEGCodec.encode(Image(bitmap: bitmap), options: EncodeOptions(
            jpegQuality: 90, jpegSubsampling: subsampling, jpegProgressive: progressive))
    }

    static func entry(_ suffix: String) -> ManifestEntry? {
        Manifest.inputs.first { $0.format == "jpeg" && $0.path.hasSuffix(suffix) }
    }

    @Test("the header's quality is the -quality libjpeg's jpeg_set_quality was given, for every quality 1…100",
          arguments: [1, 10, 25, 49, 50, 51, 75, 85, 90, 92, 95, 100])
    func qualityFromTheQuantisationTable(_ quality: Int) throws {
        let bitmap = try JPEGRoundTripTests.bitmap(.rgb8, width: 16, height: 16, JPEGRoundTripTests.gradient)
        let bytes = try JPEGCodec.encode(Image(bitmap: bitmap), options: EncodeOptions(jpegQuality: quality))
        let header = try JPEGCodec.readJPEGHeader(bytes)
        #expect(header.quality == JPEGQuality(quality: quality, isStandardScaling: true), "\(String(describing: header.quality))")
        #expect(header.properties["jpeg.quality"] == "\(quality)")
    }

    // MARK: scaling

    @Test("a 1/d decode is ⌈w/d⌉ × ⌈h/d⌉ for odd sizes", arguments: [(1, 3), (7, 17), (9, 23), (37, 5), (101, 33)])
    func scaledSizes(_ size: (Int, Int)) throws {
        let (w, h) = size
        let bytes = try Self.jpeg(width: w, height: h)
        let header = try JPEGCodec.readJPEGHeader(bytes)
        let listed = try JPEGCodec.readHeader(bytes, options: DecodeOptions()).metadata.properties["jpeg.scaledSizes"] ?? ""
        #expect(listed.contains("1/8: \((w + 7) / 8)×\((h + 7) / 8)"))
        for d in [1, 2, 4, 8] {
            let expected = ((w + d - 1) / d, (h + d - 1) / d)
            let image = try JPEGCodec.decode(bytes, options: DecodeOptions(jpegScaleDenominator: d))
            #expect((image.width, image.height) == expected, "1/\(d) of \(w)×\(h)")
            #expect(header.outputSize(scaleDenominator: d) == expected)
            #expect(image.metadata.properties["jpeg.scale"] == (d == 1 ? nil : "1/\(d)"))
        }
    }

    @Test("scale denominators other than 1, 2, 4, 8 are unsupported", arguments: [0, 3, 16])
    func badScale(_ d: Int) throws {
        let bytes = try Self.jpeg(width: 8, height: 8)
        let error = #expect(throws: DecodeError.self) { try JPEGCodec.decode(bytes, options: DecodeOptions(jpegScaleDenominator: d)) }
        guard case .unsupported = error else { Issue.record("expected unsupported, got \(String(describing: error))"); return }
    }

    // MARK: limits

    @Test("the pixel limit applies to the output size: 64×64 fails 1000 pixels at 1/1 and 1/2, passes at 1/4")
    func pixelLimitOnOutput() throws {
        let bytes = try Self.jpeg(width: 64, height: 64)
        let limits = DecodeLimits(maxPixels: 1000)
        for d in [1, 2] {  // 4096 and 1024 pixels
            let error = #expect(throws: DecodeError.self) {
                try JPEGCodec.decode(bytes, options: DecodeOptions(limits: limits, jpegScaleDenominator: d))
            }
            #expect(error == .limitExceeded(.pixels, requested: (64 / d) * (64 / d), allowed: 1000))
        }
        let quarter = try JPEGCodec.decode(bytes, options: DecodeOptions(limits: limits, jpegScaleDenominator: 4))
        #expect((quarter.width, quarter.height) == (16, 16))
    }

    @Test("a progressive file reserves its coefficient buffer: 128×128 4:4:4 needs more than its 49152-byte bitmap")
    func coefficientBudget() throws {
        // Bitmap 128·128·3 = 49152 bytes; coefficients 3 components × 16·16 blocks × 64 × 2 = 98304 bytes.
        let progressive = try Self.jpeg(width: 128, height: 128, progressive: true, subsampling: .s444)
        let tight = DecodeOptions(limits: DecodeLimits(maxBytes: 49_152 + 98_304 - 1))
        let error = #expect(throws: DecodeError.self) { try JPEGCodec.decode(progressive, options: tight) }
        guard case .limitExceeded(.bytes, _, _) = error else { Issue.record("expected a byte limit, got \(String(describing: error))"); return }
        let roomy = DecodeOptions(limits: DecodeLimits(maxBytes: 1 << 20))
        #expect(try JPEGCodec.decode(progressive, options: roomy).width == 128)
    }

    @Test("a header declaring 65535×65535 is refused at any scale, before libjpeg allocates (its maximum is 65500)", SharedData.needsCorpus,
          arguments: [1, 8])
    func maxSize(_ d: Int) throws {
        let entry = try #require(Self.entry("crashtest/max_size.jpg"))
        let bytes = try #require(Manifest.bytes(entry.path))
        #expect(entry.expected?.width == 65535 && entry.expected?.height == 65535)
        let error = #expect(throws: DecodeError.self) { try JPEGCodec.decode(bytes, options: DecodeOptions(jpegScaleDenominator: d)) }
        #expect(error == .limitExceeded(.dimension, requested: 65535, allowed: JPEGDecoder.maxDimension))
    }

    @Test("a 30000×30000 header is refused by the pixel limit before any allocation; at 1/8, which fits, as truncated: 308 bytes cannot hold its MCUs")
    func declaredHugeRejected() throws {
        // 30000 × 30000 = 9e8 pixels > the default 0x3FFF² ≈ 2.68e8; the SOF is patched into a small file.
        var bytes = try Self.jpeg(width: 16, height: 16)
        guard let sof = (0..<(bytes.count - 9)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            Issue.record("no SOF0 in the encoder's output"); return
        }
        let (hi, lo) = (UInt8(30000 >> 8), UInt8(30000 & 0xFF))
        bytes[sof + 5] = hi; bytes[sof + 6] = lo; bytes[sof + 7] = hi; bytes[sof + 8] = lo
        let header = try JPEGCodec.readJPEGHeader(bytes)
        #expect((header.width, header.height) == (30000, 30000))
        #expect(header.outputSize(scaleDenominator: 8) == (3750, 3750))
        let error = #expect(throws: DecodeError.self) { try JPEGCodec.decode(bytes, options: DecodeOptions()) }
        #expect(error == .limitExceeded(.pixels, requested: 30000 * 30000, allowed: DecodeLimits.default.maxPixels))
        // At 1/8 the output fits, but the encoder's 4:2:0 MCUs are 16×16: 1875² of them, at least
        // one bit each (a Huffman code is at least a bit long), need ⌈3,515,625 / 8⌉ = 439,454 bytes.
        let small = DecodeOptions(jpegScaleDenominator: 8)
        let truncated = #expect(throws: DecodeError.self) { try JPEGCodec.decode(bytes, options: small) }
        guard case .truncated(.jpeg, let reason, _) = truncated else { Issue.record("\(String(describing: truncated))"); return }
        #expect(reason.contains("3515625 MCUs of at least one bit each (439454 bytes); the file has \(bytes.count) bytes"), "\(reason)")
    }

    // MARK: unsupported and corrupt input

    @Test("lossless, JPEG-LS, 12-bit and DNL files throw .unsupported naming the feature", SharedData.needsCorpus)
    func unsupportedFeatures() throws {
        let words = ["JPEG-LS": "JPEG-LS", "lossless JPEG": "lossless", "12-bit samples": "12-bit",
                     "DNL (height defined after first scan)": "DNL"]
        var checked = 0
        for entry in Manifest.inputs where entry.format == "jpeg" && entry.expected?.decode == "ok" {
            guard case .reasons(let reasons)? = entry.expected?.support_optional,
                  let reason = reasons.first(where: { words[$0] != nil }), let word = words[reason],
                  let bytes = Manifest.bytes(entry.path) else { continue }
            checked += 1
            do {
                _ = try JPEGCodec.decode(bytes, options: DecodeOptions())
                Issue.record("\(entry.path) decoded, but libjpeg-turbo 8-bit cannot decode \(reason)")
            } catch {
                guard case .unsupported(_, let feature) = error, feature.contains(word) || (word == "lossless" && feature.contains("JPEG-LS")) else {
                    Issue.record("\(entry.path): \(error), expected unsupported \(word)"); continue
                }
            }
        }
        #expect(checked > 50)
    }

    @Test("arithmetic-coded files decode and say so", SharedData.needsCorpus)
    func arithmetic() throws {
        var checked = 0
        for entry in Manifest.inputs where entry.format == "jpeg" && entry.expected?.decode == "ok" {
            guard case .reasons(let reasons)? = entry.expected?.support_optional, reasons == ["arithmetic coding"],
                  let bytes = Manifest.bytes(entry.path) else { continue }
            let image = try JPEGCodec.decode(bytes, options: DecodeOptions())
            #expect(image.metadata.properties["jpeg.coding"] == "arithmetic", "\(entry.path)")
            #expect((image.width, image.height) == (entry.expected?.width, entry.expected?.height), "\(entry.path)")
            checked += 1
        }
        #expect(checked > 20)
    }

    @Test("a file cut in half decodes its first rows exactly and records libjpeg's premature-end warning")
    func truncated() throws {
        let bytes = try Self.jpeg(width: 64, height: 64)
        let full = try JPEGCodec.decode(bytes, options: DecodeOptions())
        let half = try JPEGCodec.decode(Array(bytes.prefix(bytes.count / 2 + 200)), options: DecodeOptions())
        // 4:2:0 MCUs are 16 rows tall; the first MCU row lies well inside the first half.
        let firstRows = 16 * full.bitmap.bytesPerRow
        #expect(half.bitmap.bytes.prefix(firstRows) == full.bitmap.bytes.prefix(firstRows))
        #expect(half.metadata.properties["jpeg.warnings"]?.contains("Premature end") == true)
        #expect(full.metadata.properties["jpeg.warnings"] == nil)
    }

    @Test("a file that ends inside its header throws .truncated")
    func truncatedHeader() throws {
        let bytes = try Self.jpeg(width: 16, height: 16)
        let error = #expect(throws: DecodeError.self) { try JPEGCodec.decode(Array(bytes.prefix(30)), options: DecodeOptions()) }
        guard case .truncated(.jpeg, _, let offset) = error else { Issue.record("expected truncated, got \(String(describing: error))"); return }
        #expect(offset.map { $0 <= 30 } == true)
    }

    @Test("bytes that do not start with SOI are malformed at offset 0")
    func noSOI() throws {
        let error = #expect(throws: DecodeError.self) { try JPEGCodec.decode([0x89, 0x50, 0x4E, 0x47, 0, 0], options: DecodeOptions()) }
        guard case .malformed(.jpeg, _, 0?) = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test("a progressive file with 600 scans is stopped at the scan limit")
    func scanLimit() throws {
        let bytes = try Self.jpeg(width: 16, height: 16, progressive: true)
        // Repeat the last scan (SOS … up to EOI); libjpeg warns about the bogus progression and reads on.
        guard let lastSOS = (0..<(bytes.count - 1)).last(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }) else {
            Issue.record("no SOS in the encoder's output"); return
        }
        let scan = bytes[lastSOS..<(bytes.count - 2)]
        var crafted = Array(bytes[..<lastSOS])
        for _ in 0..<600 { crafted += scan }
        crafted += [0xFF, 0xD9]
        let error = #expect(throws: DecodeError.self) { try JPEGCodec.decode(crafted, options: DecodeOptions()) }
        guard case .malformed(.jpeg, let reason, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("limit of \(JPEGDecoder.maxScans) scans"))
    }

    @Test("300 damaged copies of a progressive file each decode or throw, none crashes")
    func damagedCopies() throws {
        let bytes = try Self.jpeg(width: 40, height: 24, progressive: true)
        var state: UInt32 = 12345
        func next() -> Int { state = state &* 1_103_515_245 &+ 12345; return Int(state >> 8) }
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<(1 + next() % 4) { damaged[2 + next() % (damaged.count - 2)] = UInt8(next() % 256) }
            if next() % 3 == 0 { damaged = Array(damaged.prefix(2 + next() % (damaged.count - 2))) }
            do { _ = try JPEGCodec.decode(damaged, options: DecodeOptions()) } catch {}
        }
    }

    // MARK: what the manifest documents

    @Test("CMYK and YCCK files deliver 8-bit CMYK, Adobe-inverted exactly when the file has the Adobe marker", SharedData.needsCorpus)
    func cmyk() throws {
        var checked = 0
        for entry in Manifest.inputs where entry.format == "jpeg" && entry.expected?.decode == "ok" {
            guard let type = entry.expected?.color_type, type == "cmyk" || type == "ycck",
                  case .no? = entry.expected?.support_optional, let bytes = Manifest.bytes(entry.path) else { continue }
            let image = try JPEGCodec.decode(bytes, options: DecodeOptions())
            // The manifest's header summary names the Adobe transform when an APP14 marker is present.
            let adobe = Self.description(entry.path).contains("Adobe transform")
            #expect(image.format == PixelFormat(colorModel: .cmyk(inverted: adobe), bitsPerComponent: 8), "\(entry.path)")
            #expect(image.metadata.properties["jpeg.colorSpace"] == (type == "ycck" ? "YCCK" : "CMYK"), "\(entry.path)")
            checked += 1
        }
        #expect(checked >= 5)
    }

    /// The manifest's description of a file (header summary included).
    static func description(_ path: String) -> String {
        ManifestDescriptions.all[path] ?? ""
    }

    @Test("EXIF orientation examples declare their orientation in APP1; value 0 is noted and treated as 1", SharedData.needsCorpus)
    func exifSource() throws {
        var seen: Set<Int> = []
        for entry in Manifest.inputs where entry.path.hasPrefix("exif-orientation-examples/") {
            let bytes = try #require(Manifest.bytes(entry.path), "\(entry.path) is listed but missing")
            if let value = entry.expected?.orientation { seen.insert(value) }
            let header = try JPEGCodec.readHeader(bytes, options: DecodeOptions())
            #expect(header.metadata.orientationSource == .jpegExif, "\(entry.path)")
            #expect(header.metadata.exif?.prefix(2) == [0x4D, 0x4D] || header.metadata.exif?.prefix(2) == [0x49, 0x49])
            if entry.expected?.orientation == 0 {
                #expect(header.orientation == .up)
                #expect(header.metadata.properties["exif.orientation"] != nil)
            } else {
                #expect(header.orientation.exifValue == entry.expected?.orientation, "\(entry.path)")
            }
        }
        // The collection holds Landscape/Portrait files for EXIF values 0 (invalid) and 1…8.
        #expect(seen == Set(0...8), "orientations read: \(seen.sorted())")
    }

    @Test("embedded ICC profiles are whole: the profile's own size field equals its length", SharedData.needsCorpus)
    func iccProfiles() throws {
        var checked = 0
        for entry in Manifest.inputs where entry.format == "jpeg" && entry.expected?.decode == "ok" {
            // The header summary after " | " lists ", ICC" when APP2 ICC_PROFILE markers are present.
            guard case .no? = entry.expected?.support_optional,
                  Self.description(entry.path).components(separatedBy: " | ").last?.contains(", ICC") == true,
                  entry.path != "pillow-tests/icc-after-SOF.jpg",
                  let bytes = Manifest.bytes(entry.path) else { continue }
            let image = try JPEGCodec.decode(bytes, options: DecodeOptions())
            guard let icc = image.metadata.iccProfile, icc.count >= 128 else {
                Issue.record("\(entry.path): no ICC profile"); continue
            }
            let declared = icc.prefix(4).reduce(0) { $0 << 8 | Int($1) }  // ICC.1 §7.2.2, big-endian
            #expect(declared == icc.count, "\(entry.path)")
            #expect(Array(icc[36..<40]) == Array("acsp".utf8), "\(entry.path)")  // ICC.1 §7.2.9
            checked += 1
        }
        #expect(checked >= 5)
    }

    @Test("an ICC chunk repeated after SOF is read once (Pillow's icc-after-SOF expects the profile b\"profile\")", SharedData.needsCorpus)
    func iccAfterSOF() throws {
        let entry = try #require(Self.entry("pillow-tests/icc-after-SOF.jpg"))
        let bytes = try #require(Manifest.bytes(entry.path))
        let image = try JPEGCodec.decode(bytes, options: DecodeOptions())
        #expect(image.metadata.iccProfile == Array("profile".utf8))
    }
}

/// The `description` field of each manifest entry (header summary after ` | `), which
/// `ManifestEntry` does not decode.
enum ManifestDescriptions {
    static let all: [String: String] = {
        guard let corpus = SharedData.corpus,
              let data = try? Data(contentsOf: corpus.appendingPathComponent("manifest.json")),
              let list = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else { return [:] }
        var out: [String: String] = [:]
        for item in list {
            if let path = item["path"] as? String, let text = item["description"] as? String { out[path] = text }
        }
        return out
    }()
}
