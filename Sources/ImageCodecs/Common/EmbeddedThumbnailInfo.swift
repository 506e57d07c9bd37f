import ImageCore

/// What `imglab info` says about a thumbnail embedded in the file's EXIF block (``EXIFThumbnail``):
/// its size, its own orientation tag, and, when the image's pixels were decoded, whether it
/// shows the image.
public struct EmbeddedThumbnailInfo: Sendable, Hashable, Codable {
    /// Stored size of the embedded JPEG, in pixels; `nil` when its header cannot be read.
    public var width: Int?, height: Int?
    /// Size of the embedded JPEG, in bytes.
    public var bytes: Int
    /// IFD1's own orientation tag, when it has one.
    public var orientation: Int?
    /// Mean |Δ| in 8-bit codes between the thumbnail and the image averaged down to the
    /// thumbnail's size (both in stored orientation, rendered in sRGB); `nil` until compared.
    public var meanDeparture: Double?
    /// The correlation (−1…1) of the two pictures' luma, which a tone or colour difference
    /// leaves high and another picture or orientation does not; `nil` until compared.
    public var correlation: Double?
    /// Whether the thumbnail shows the image: ``correlation`` at least ``matchLimit``, or
    /// ``meanDeparture`` within ``nearlyEqual``.
    public var matches: Bool?
    /// Whether black bars around the thumbnail's picture were left out of the comparison.
    public var barsTrimmed: Bool?

    /// The least luma correlation of a thumbnail that shows the image: a thumbnail of the same
    /// picture, even rendered in other colours, correlates near 1; another picture or the picture
    /// turned, near 0 or below.
    public static let matchLimit = 0.9
    /// The mean |Δ| (8-bit codes) within which a thumbnail shows the image whatever the
    /// correlation (a flat picture's is noise).
    public static let nearlyEqual = 4.0

    /// The description of `thumbnail`, from its JPEG header alone.
    public init(_ thumbnail: EXIFThumbnail) {
        bytes = thumbnail.jpeg.count
        orientation = thumbnail.orientationValue
        if let header = try? ImageCodecs.readHeader(thumbnail.jpeg) {
            (width, height) = (header.width, header.height)
        }
    }

    /// The description of `thumbnail` compared with `image`, the file's decoded image, both
    /// rendered in sRGB (the image through its profile, as a CMYK camera file needs).
    public init(_ thumbnail: EXIFThumbnail, comparedWith image: Image) {
        self.init(thumbnail)
        let rendered = (try? SRGBRendering.render(image)) ?? image
        guard let decoded = try? ImageCodecs.decode(thumbnail.jpeg), let small = try? SRGBRendering.render(decoded).bitmap.converted(to: .rgb8),
              let large = try? rendered.bitmap.converted(to: .rgb8), small.width <= large.width, small.height <= large.height else { return }
        /// Mean |Δ| (codes) and the correlation of luma (−1…1) between the thumbnail's `frame` and the image.
        func reading(inside frame: (x: Int, y: Int, width: Int, height: Int)) -> (departure: Double, correlation: Double) {
            var total = 0.0, pairs: [(Double, Double)] = []
            for ty in 0..<frame.height {
                let y0 = ty * large.height / frame.height, y1 = max(y0 + 1, (ty + 1) * large.height / frame.height)
                for tx in 0..<frame.width {
                    let x0 = tx * large.width / frame.width, x1 = max(x0 + 1, (tx + 1) * large.width / frame.width)
                    var sum = [0, 0, 0]
                    for y in y0..<y1 {
                        let row = y * large.bytesPerRow
                        for x in x0..<x1 { for c in 0..<3 { sum[c] += Int(large.bytes[row + 3 * x + c]) } }
                    }
                    let n = Double((y1 - y0) * (x1 - x0)), o = (frame.y + ty) * small.bytesPerRow + 3 * (frame.x + tx)
                    let image = sum.map { Double($0) / n }, thumb = (0..<3).map { Double(small.bytes[o + $0]) }
                    for c in 0..<3 { total += abs(image[c] - thumb[c]) }
                    pairs.append((0.299 * image[0] + 0.587 * image[1] + 0.114 * image[2], 0.299 * thumb[0] + 0.587 * thumb[1] + 0.114 * thumb[2]))
                }
            }
            let count = Double(pairs.count)
            let mean = (pairs.reduce(0) { $0 + $1.0 } / count, pairs.reduce(0) { $0 + $1.1 } / count)
            var cov = 0.0, va = 0.0, vb = 0.0
            for (p, q) in pairs { cov += (p - mean.0) * (q - mean.1); va += (p - mean.0) * (p - mean.0); vb += (q - mean.1) * (q - mean.1) }
            return (total / (3 * count), va > 0 && vb > 0 ? cov / (va * vb).squareRoot() : (va == vb ? 1 : 0))
        }
        // Cameras letterbox a thumbnail of another aspect ratio with black bars: the picture inside
        // them is read too, and the closer reading kept (a dark picture's edges are no bars).
        let whole = reading(inside: (0, 0, small.width, small.height))
        let frame = Self.insideBlackBars(small)
        let inside = frame.width < small.width || frame.height < small.height ? reading(inside: frame) : whole
        barsTrimmed = inside.correlation > whole.correlation
        let best = barsTrimmed == true ? inside : whole
        meanDeparture = best.departure
        correlation = best.correlation
        // A flat picture's luma correlation says little: values within a few codes match too.
        matches = best.correlation >= Self.matchLimit || best.departure <= Self.nearlyEqual
    }

    /// The part of `thumbnail` (8-bit RGB) inside the rows and columns at its edges whose every
    /// pixel is black (each channel ≤ 16), kept whole when those would leave less than half of it.
    static func insideBlackBars(_ thumbnail: Bitmap) -> (x: Int, y: Int, width: Int, height: Int) {
        func black(_ x: Int, _ y: Int) -> Bool { (0..<3).allSatisfy { thumbnail.bytes[y * thumbnail.bytesPerRow + 3 * x + $0] <= 16 } }
        var left = 0, right = thumbnail.width, top = 0, bottom = thumbnail.height
        while left < right - 1, (top..<bottom).allSatisfy({ black(left, $0) }) { left += 1 }
        while right > left + 1, (top..<bottom).allSatisfy({ black(right - 1, $0) }) { right -= 1 }
        while top < bottom - 1, (left..<right).allSatisfy({ black($0, top) }) { top += 1 }
        while bottom > top + 1, (left..<right).allSatisfy({ black($0, bottom - 1) }) { bottom -= 1 }
        guard 2 * (right - left) >= thumbnail.width, 2 * (bottom - top) >= thumbnail.height else {
            return (0, 0, thumbnail.width, thumbnail.height)
        }
        return (left, top, right - left, bottom - top)
    }

    /// One line for `imglab info`.
    public var words: String {
        let size = width.flatMap { w in height.map { "\(w)×\($0)" } } ?? "unreadable"
        var out = "\(size) JPEG in EXIF IFD1 (\(bytes) bytes)" + (orientation.map { ", its own orientation \($0)" } ?? "")
        if let meanDeparture, let correlation, let matches {
            let figures = String(format: "luma correlation %.2f, mean |Δ| %.1f codes", correlation, meanDeparture)
                + (barsTrimmed == true ? ", black bars left out" : "")
            out += matches ? "; shows the image (\(figures))" : "; does NOT show the image (\(figures): stale or another orientation)"
        }
        return out
    }
}
