import Testing
import ImageCore
import ImageCodecs
@testable import ImageLab
@testable import ImageCorpus

/// Acceptance 2 (coverage) and 4 (counts): what the quick profile holds.
@Suite("Corpus coverage")
struct CorpusCoverageTests {
    let records = QuickCorpus.generated.manifest.cases

    @Test("every input failure D1–D13 has a case in quick", arguments: DocumentFailure.inputFailures)
    func documentFailureCovered(_ d: DocumentFailure) {
        #expect(records.contains { $0.documents.contains(d.rawValue) })
    }

    @Test("every format or orientation bug class has a case in quick", arguments: BugClass.formatClasses)
    func bugClassCovered(_ b: BugClass) {
        #expect(records.contains { $0.bugClasses.contains(b.rawValue) })
    }

    @Test("every encoding of the catalogue appears in quick")
    func everyEncodingUsed() {
        let used = Set(records.map(\.encoding))
        #expect(EncodingCatalog.all.map(\.id).filter { !used.contains($0) } == [])
    }

    @Test("PNG, JPEG and TIFF each have all eight orientations in quick", arguments: ["png", "jpeg", "tiff"])
    func allOrientations(_ container: String) {
        let found = Set(records.filter { $0.container == container }.map(\.orientation))
        #expect(found == Set(1...8))
    }

    @Test("the issue's pixel formats are all present, in Quartz terms")
    func formatsPresent() {
        let formats = Set(records.map(\.pixelFormat))
        for f: PixelFormat in [.gray8, .gray16, .grayAlpha8, .grayAlpha16, .rgb8, .rgb16, .rgba8, .rgba16, .rgba8Premultiplied, .rgbaFloat,
                               .cmyk8, PixelFormat(colorModel: .cmyk(inverted: true), bitsPerComponent: 8),
                               PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first, byteOrder: .little32),
                               PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst, byteOrder: .little32)] {
            #expect(formats.contains(PixelFormatRecord(f)), "\(f)")
        }
        for bits in [1, 2, 4, 8] {
            #expect(records.contains { $0.pixelFormat.colorModel == "kCGColorSpaceModelIndexed" && $0.pixelFormat.bitsPerComponent == bits })
            #expect(records.contains { $0.pixelFormat.colorModel == "kCGColorSpaceModelMonochrome" && $0.pixelFormat.bitsPerComponent == bits })
        }
    }

    @Test("quick stays small: a few hundred pairs of small images, under 30 MB")
    func quickIsSmall() {
        let stats = CorpusStats(QuickCorpus.generated)
        #expect((200...600).contains(stats.pairs))
        #expect(stats.bytes < 30_000_000)
        #expect(records.allSatisfy { $0.width * $0.height <= 96 * 64 })
    }

    @Test("the stats count every case once per table")
    func statsAddUp() {
        let stats = CorpusStats(QuickCorpus.generated)
        #expect(stats.containers.values.reduce(0, +) == records.count)
        #expect(stats.pixelFormats.values.reduce(0, +) == records.count)
        #expect(stats.orientations.values.reduce(0, +) == records.count)
        #expect(stats.text.contains("per container:"))
    }

    @Test("case identifiers are unique in both profiles")
    func uniqueIDs() {
        for profile in CorpusProfile.allCases {
            let ids = profile.cases.map(\.id)
            #expect(Set(ids).count == ids.count, "\(profile)")
        }
    }

    @Test("full holds every encoding, all eight orientations of every container that records one, and only storable scenes")
    func fullProfile() {
        let cases = CorpusProfile.full.cases
        #expect(Set(cases.map(\.encoding.id)) == Set(EncodingCatalog.all.map(\.id)))
        for encoding in EncodingCatalog.all where encoding.carriesOrientation {
            #expect(Set(cases.filter { $0.encoding == encoding }.map(\.orientation)) == Set(Orientation.allCases), "\(encoding.id)")
        }
        #expect(cases.allSatisfy { CorpusProfile.canStore($0.scene, in: $0.encoding) })
        #expect(cases.allSatisfy { $0.width == 96 && $0.height == 64 })
    }

    /// The stencil in a gray format without alpha: the violet glyph (60, 40, 200) has luma
    /// (Rec. 601 of the encoded values) 64.2 and the background shows the gray hidden colour,
    /// white: 1 bit rounds them to 0 and 1, apart. The colour patches' 24 colours cannot stay
    /// apart in 1, 2 or 4 bits (2, 4 and 16 levels).
    @Test("a coarse gray format holds a flat scene only if its colours round to distinct levels: the stencil yes, the colour patches no")
    func coarseGrayKeepsColoursApart() throws {
        for id in ["png-gray1", "png-gray2", "png-gray4"] {
            let encoding = try #require(EncodingCatalog.named(id))
            #expect(CorpusProfile.keepsColoursApart(.stencil, in: encoding), "\(id)")
            #expect(!CorpusProfile.keepsColoursApart(.colorPatches, in: encoding), "\(id)")
            #expect(!CorpusProfile.full.cases.contains { $0.encoding == encoding && $0.scene == .colorPatches }, "\(id)")
        }
        let gray8 = try #require(EncodingCatalog.named("png-gray8"))
        #expect(CorpusProfile.keepsColoursApart(.colorPatches, in: gray8))
        // Smooth scenes stay: the coarse families judge their quantisation.
        let gray1 = try #require(EncodingCatalog.named("png-gray1"))
        #expect(CorpusProfile.full.cases.contains { $0.encoding == gray1 && $0.scene == .landscape })
    }
}
