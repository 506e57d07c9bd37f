import ImageCore

/// The stage of `--size-policy resize`: when two images' displayed sizes differ, the actual
/// image is resized to the expected image's displayed size before the judge, and the pair is
/// then judged as images of one size (every metric, the gate, the diagnosis). ImageMetrics has
/// no resampler, so the caller supplies one (imglab's own, ImageResize: Lanczos 3 in linear
/// light); ``Judgement/resized`` says what was done.
public struct ResizeStage: Sendable {
    /// Resamples a displayed image (orientation applied by it) to `width × height` pixels; `nil`
    /// when it cannot.
    public var resample: @Sendable (_ image: Image, _ width: Int, _ height: Int) -> Image?
    /// The resampler in words, e.g. `Lanczos 3 in linear light`.
    public var method: String

    public init(method: String, resample: @escaping @Sendable (_ image: Image, _ width: Int, _ height: Int) -> Image?) {
        self.method = method
        self.resample = resample
    }

    /// The actual side resized to the expected side's displayed size, and the sentence that says
    /// so; `nil` when the sizes are equal or the resampler cannot.
    public func prepare(_ expected: ComparedImage, _ actual: ComparedImage) -> (actual: ComparedImage, resized: String)? {
        let e = expected.image.displaySize, a = actual.image.displaySize
        guard e.width != a.width || e.height != a.height, e.width > 0, e.height > 0,
              let image = resample(actual.image, e.width, e.height) else { return nil }
        let words = "actual resized from \(a.width)×\(a.height) to \(e.width)×\(e.height) (\(method)) before comparing (--size-policy resize)"
        return (ComparedImage(image: image, name: actual.name, container: nil), words)
    }
}
