import Foundation
import ImageCore
import ImageCodecs
import ImageCorpus
import ImageMetrics

/// The invisible-pixel invariance stage of a corpus pair that has a hidden-colour twin: the twin
/// differs from the source only in the colour under α = 0, so a resizer that premultiplies gives
/// the same visible output for both.
struct HiddenInvariance {
    var corpus: CorpusFiles

    /// `hidden.delta`: the largest visible or alpha |Δ| (8-bit code units, over every frame)
    /// between `output` and the resizer's output of the twin, fed the same way as the source (the
    /// file, or its upright pixels when the resizer does not orient); infinite when the two
    /// outputs differ in size or frame count.
    /// - Throws: ``PairStageError`` when the twin cannot be decoded or the resizer throws on it.
    func delta(twin: String, scale: Int, operation: LabOperation, resizer: any Resizer, declared: DeclaredJudgement,
               output: Image) throws(PairStageError) -> Double {
        var twinImage = try corpus.decode(twin, what: "the twin")
        if scale != 1 { twinImage.metadata.scale = Double(scale) }
        let fedFile = declared.inputFile != nil
        let twinOutput: Image
        do {
            twinOutput = try resizer.apply(operation, to: fedFile ? twinImage : twinImage.oriented(),
                                           file: fedFile ? corpus.path(twin) : nil)
        } catch { throw PairStageError(reason: "resizer \(resizer.name) on the twin \(twin): \(error)") }
        guard twinOutput.frameCount == output.frameCount, twinOutput.displaySize == output.displaySize else { return .infinity }
        var delta = 0.0
        for k in 0..<output.frameCount {
            func frame(_ image: Image) -> ComparedImage {
                ComparedImage(image: Image(bitmap: image.animation.map { $0.frames[k].canvas } ?? image.bitmap, orientation: image.orientation,
                                           metadata: image.metadata), name: "")
            }
            let c = Comparison(expected: frame(output), actual: frame(twinOutput), options: ComparisonOptions(diagnose: false, structural: false))
            delta = max(delta, c.value("visible.max") ?? .infinity, c.value("alpha.max") ?? .infinity)
        }
        return delta
    }

    /// The diagnosis of a pair that fails the invariance and that nothing else explains: hidden
    /// colour reaching visible pixels is what resampling straight colour does.
    static func finding(delta: Double) -> PairResult.Finding {
        .init(bugClass: "premultiplication", name: "colour hidden under α = 0 reaches visible pixels", confidence: 1,
              summary: "premultiplication: the output of the hidden-colour twin differs (hidden.delta \(String(format: "%.3g", delta))): "
                + "colour under α = 0 is resampled into visible pixels, as straight-alpha resampling does (B4)")
    }
}
