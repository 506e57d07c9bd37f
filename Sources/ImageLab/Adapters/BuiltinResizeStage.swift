import ImageCore
import ImageMetrics
import ImageResize

extension ResizeStage {
    /// imglab's own resampler for `--size-policy resize`: ``ImageResize``'s Lanczos 3, in linear
    /// light, premultiplied, the orientation applied first (the resizer the lab gates).
    public static let builtin = ResizeStage(method: "Lanczos 3 in linear light") { image, width, height in
        try? image.resized(width: width, height: height)
    }
}
