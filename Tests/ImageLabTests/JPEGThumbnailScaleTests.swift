import Testing
import ImageCore
import ImageCorpus
import ImageResize

/// The kernel-exact oracle renders from the full decode of a JPEG. A thumbnail decoded at 1/2,
/// 1/4 or 1/8 in the DCT domain starts from another image (libjpeg's scaled inverse DCT), so that
/// oracle would not apply to it: the lab's corpus keeps every JPEG thumbnail at full decoding
/// (docs/gates.md, "JPEG thumbnails").
@Suite("JPEG thumbnails in the corpus")
struct JPEGThumbnailScaleTests {
    @Test("no maxPixelSize pair of a JPEG case, in either profile, is decoded at a reduced DCT scale",
          arguments: CorpusProfile.allCases)
    func fullDecodingOnly(_ profile: CorpusProfile) {
        var checked = 0
        for c in profile.cases where c.encoding.container == .jpeg {
            for case .maxPixelSize(let n) in c.operations {
                let target = OutputGeometry.maxPixelSize(width: c.width, height: c.height, limit: n)
                // The DCT scale applies to the stored (unrotated) size; the target is upright.
                let stored = c.orientation.inverse.displaySize(width: target.width, height: target.height)
                #expect(MaxPixelSizeThumbnail.scaleDenominator(width: c.storedSize.width, height: c.storedSize.height, target: stored) == 1,
                        "\(c.id)/maxPixelSize-\(n)")
                checked += 1
            }
        }
        #expect(checked > 0, "no JPEG maxPixelSize pair in the \(profile) profile")
    }
}
