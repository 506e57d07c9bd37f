import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageLab
@testable import ImageCorpus

/// Acceptance 2 and 3: every corpus file decodes to its manifest entry, and its pixels equal the
/// identity oracle (the stored oracle file) within the storage's quantisation.
@Suite("Corpus decoding")
struct CorpusDecodeTests {
    static let caseIDs: [String] = QuickCorpus.generated.cases.map(\.id)

    static func lookup(_ id: String) throws -> (CorpusCase, CaseRecord) {
        try #require(QuickCorpus.pairs.first { $0.0.id == id })
    }

    @Test("every file decodes to its manifest entry: size, display size, pixel format, orientation, frames", arguments: caseIDs)
    func decodesToManifest(_ id: String) throws {
        let (_, record) = try Self.lookup(id)
        let image = try QuickCorpus.decode(record.file)
        #expect(image.width == record.width && image.height == record.height)
        #expect(image.displaySize.width == record.displayWidth && image.displaySize.height == record.displayHeight)
        #expect(image.orientation.exifValue == record.orientation)
        #expect(image.frameCount == record.frames)
        #expect(PixelFormatRecord(image.format) == record.pixelFormat, "decoded \(PixelFormatRecord(image.format).summary), manifest \(record.pixelFormat.summary)")
        if let animation = record.animation {
            let frames = try #require(image.animation?.frames)
            #expect(frames.map(\.delay) == animation.delays)
            #expect(image.animation?.loopCount == animation.loopCount)
            if record.container == "png" {
                #expect(frames.map(\.disposal.rawValue) == animation.disposals)
                #expect(frames.map(\.blend.rawValue) == Array(repeating: animation.blend, count: frames.count))
            }
        }
    }

    @Test("the decoded, oriented file equals the identity oracle within the storage's quantisation", arguments: caseIDs)
    func identityOracle(_ id: String) throws {
        let (c, record) = try Self.lookup(id)
        // A tagged file is compared as it shows its colours: rendered in sRGB through its statement.
        let upright = try SRGBRendering.render(QuickCorpus.decode(record.file), sixteenBit: true).oriented()
        let orient = try #require(record.operations.first { $0.id == "orient" })
        for (k, path) in orient.oracle.enumerated() {
            let oracle = try QuickCorpus.decode(path).bitmap
            let decoded = k == 0 ? upright.bitmap : try #require(upright.animation?.frames[k].canvas)
            if let tolerance = record.tolerance {
                // 16-bit oracle storage adds up to 1/65535 per value, α·C′ twice that.
                let worst = try #require(PixelCompare.maxPremultipliedDifference(decoded, oracle))
                #expect(worst <= tolerance + 2.0 / 65535 + 1e-9, "frame \(k): max |Δ| \(worst) > tolerance \(tolerance)")
            } else {
                // JPEG at quality 95 keeps luma at full resolution: luma PSNR ≥ 30 dB for every
                // case; RGB PSNR ≥ 30 dB where chroma is not subsampled (4:4:4, gray, CMYK).
                // Subsampled chroma on the flat scenes' saturated 1-pixel-sharp edges is lossy by design.
                let luma = PixelCompare.psnr(decoded, oracle, luma: true)
                #expect(luma >= 30, "\(c.id): luma PSNR \(luma) dB < 30 dB")
                if c.encoding.options.jpegSubsampling == .s444 || c.encoding.id == "jpeg-gray" || c.encoding.id.contains("cmyk") {
                    let rgb = PixelCompare.psnr(decoded, oracle)
                    #expect(rgb >= 30, "\(c.id): RGB PSNR \(rgb) dB < 30 dB")
                }
            }
        }
    }

    @Test("an orientation case stores the upright scene transformed by the inverse orientation")
    func orientationCasesShareTheUprightOracle() throws {
        // The rotated embedded-thumbnail case and the HEIC cases with an EXIF orientation beside irot/imir are the
        // oriented cases without an upright twin; seven of each of png-rgba8, jpeg-420, tiff-rgba8-unassoc,
        // webp-rgba8-lossless, heif-rgb8-lossless and avif-rgba8-lossless.
        let oriented = QuickCorpus.pairs.filter {
            $0.0.orientation != .up && $0.0.encoding.thumbnail == nil && $0.0.encoding.exifBesideTransform == nil
        }
        #expect(oriented.count == 42)
        for (c, record) in oriented {
            let up = try #require(QuickCorpus.pairs.first { $0.0.encoding == c.encoding && $0.0.scene == c.scene && $0.0.orientation == .up })
            // Same content, so the same oracle files; and the renderings are equal.
            #expect(record.operations.first?.oracle == up.1.operations.first?.oracle)
            #expect(SourceEncoder.uprightRendering(c) == SourceEncoder.uprightRendering(up.0))
            // The stored pixels differ from the upright ones (the orientation is really there) …
            let stored = try QuickCorpus.decode(record.file)
            let storedUp = try QuickCorpus.decode(up.1.file)
            if !c.orientation.swapsDimensions { #expect(stored.bitmap.bytes != storedUp.bitmap.bytes) }
            // … and applying the orientation gives the upright file's pixels exactly (lossless storage).
            if record.tolerance != nil { #expect(stored.oriented().bitmap == storedUp.bitmap, "\(c.id)") }
        }
    }

    @Test("a HEIC with an EXIF orientation beside irot/imir is oriented by irot/imir, its EXIF agreeing or turned 180° more")
    func exifBesideTheTransform() throws {
        let cases = QuickCorpus.pairs.filter { $0.0.encoding.exifBesideTransform != nil }
        #expect(cases.count == 4)
        for (c, record) in cases {
            let stored = try QuickCorpus.decode(record.file)
            let exif = stored.metadata.exif.flatMap { EXIF.orientation(in: $0) }
            let stated = c.encoding.exifBesideTransform == .agrees ? c.orientation : c.orientation.followed(by: .down)
            #expect(stored.orientation == c.orientation && exif == stated, "\(c.id)")
        }
    }
}
