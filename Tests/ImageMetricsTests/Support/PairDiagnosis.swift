import ImageCore
@testable import ImageMetrics

/// The diagnosis of two bitmaps compared as displayed, without the structural metrics (which
/// the diagnosis does not read): what the diagnosis tests of synthetic pairs ask for.
func pairDiagnosis(_ expected: Bitmap, _ actual: Bitmap) -> Diagnosis {
    Comparison(expected: ComparedImage(image: Image(bitmap: expected), name: "expected"),
               actual: ComparedImage(image: Image(bitmap: actual), name: "actual"),
               options: ComparisonOptions(structural: false)).diagnosis
}
