/// The eight EXIF orientations (tag 0x0112, TIFF tag 274) as the dihedral group of the square.
///
/// The raw value is the EXIF value. An orientation says how the *stored* pixels must be
/// transformed to be displayed upright; ``apply(to:)`` performs that transform, and the
/// result is an upright image (orientation 1).
///
/// | EXIF | Apple name | transform that makes it upright |
/// |---|---|---|
/// | 1 | up | none |
/// | 2 | upMirrored | flip left–right |
/// | 3 | down | rotate 180° |
/// | 4 | downMirrored | flip top–bottom |
/// | 5 | leftMirrored | transpose (flip about the main diagonal) |
/// | 6 | right | rotate 90° clockwise |
/// | 7 | rightMirrored | transverse (flip about the anti-diagonal) |
/// | 8 | left | rotate 90° counter-clockwise |
///
/// Internally each element is the signed permutation matrix `M` that maps centred stored
/// coordinates (u, v) to centred display coordinates: `display = M · stored`.
public enum Orientation: Int, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case up = 1, upMirrored = 2, down = 3, downMirrored = 4
    case leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    /// Creates from an EXIF value; values outside 1…8 (0 is common) give `nil`.
    public init?(exifValue: Int) { self.init(rawValue: exifValue) }

    /// The EXIF value 1…8.
    public var exifValue: Int { rawValue }

    /// The matrix rows `(a, b; c, d)`: display u = a·u + b·v, display v = c·u + d·v.
    public var matrix: (a: Int, b: Int, c: Int, d: Int) {
        switch self {
        case .up: return (1, 0, 0, 1)
        case .upMirrored: return (-1, 0, 0, 1)
        case .down: return (-1, 0, 0, -1)
        case .downMirrored: return (1, 0, 0, -1)
        case .leftMirrored: return (0, 1, 1, 0)
        case .right: return (0, -1, 1, 0)
        case .rightMirrored: return (0, -1, -1, 0)
        case .left: return (0, 1, -1, 0)
        }
    }

    /// The orientation whose matrix is `m`; every signed 2×2 permutation matrix is one.
    public init(matrix m: (a: Int, b: Int, c: Int, d: Int)) {
        let found = Orientation.allCases.first { $0.matrix == m }
        // The eight signed permutation matrices are exactly the eight cases; anything else is a programming error.
        guard let found else { preconditionFailure("not a signed permutation matrix: \(m)") }
        self = found
    }

    /// Whether displaying swaps width and height (5–8).
    public var swapsDimensions: Bool { matrix.a == 0 }

    /// Whether the transform is a reflection (2, 4, 5, 7) rather than a rotation.
    public var isMirrored: Bool { matrix.a * matrix.d - matrix.b * matrix.c == -1 }

    /// The transform that does `self` first and then `next` (matrix product `next · self`).
    public func followed(by next: Orientation) -> Orientation {
        let s = matrix, n = next.matrix
        return Orientation(matrix: (n.a * s.a + n.b * s.c, n.a * s.b + n.b * s.d,
                                    n.c * s.a + n.d * s.c, n.c * s.b + n.d * s.d))
    }

    /// The transform that undoes this one (the transposed matrix).
    public var inverse: Orientation {
        let m = matrix
        return Orientation(matrix: (m.a, m.c, m.b, m.d))
    }

    /// The size shown on screen for a stored `width × height`.
    public func displaySize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsDimensions ? (height, width) : (width, height)
    }

    /// Where the stored pixel `(x, y)` of a `width × height` image lands when displayed.
    public func displayPoint(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        // Centred coordinates doubled, so odd sizes stay integral: u = 2x − (w − 1).
        let u = 2 * x - (width - 1), v = 2 * y - (height - 1)
        let m = matrix
        let du = m.a * u + m.b * v, dv = m.c * u + m.d * v
        let (dw, dh) = displaySize(width: width, height: height)
        return ((du + dw - 1) / 2, (dv + dh - 1) / 2)
    }

    /// Apple's `CGImagePropertyOrientation` / `UIImage.Orientation`-style name.
    public var description: String {
        switch self {
        case .up: return "up"
        case .upMirrored: return "upMirrored"
        case .down: return "down"
        case .downMirrored: return "downMirrored"
        case .leftMirrored: return "leftMirrored"
        case .right: return "right"
        case .rightMirrored: return "rightMirrored"
        case .left: return "left"
        }
    }

    /// Transforms the stored pixels so they display upright with this orientation applied;
    /// the result's width and height are the display size. Works on any pixel format,
    /// including packed 1/2/4-bit rows, by moving whole pixels.
    public func apply(to bitmap: Bitmap) -> Bitmap {
        if self == .up { return bitmap }
        let w = bitmap.width, h = bitmap.height
        let (dw, dh) = displaySize(width: w, height: h)
        let format = bitmap.format
        let bpp = format.bitsPerPixel
        let outStride = format.minimumBytesPerRow(width: dw)
        var out = [UInt8](repeating: 0, count: outStride * dh)
        let inverse = self.inverse
        bitmap.bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for dy in 0..<dh {
                    for dx in 0..<dw {
                        let s = inverse.displayPoint(x: dx, y: dy, width: dw, height: dh)
                        if bpp >= 8 {
                            let n = bpp / 8
                            let so = s.y * bitmap.bytesPerRow + s.x * n, dO = dy * outStride + dx * n
                            for k in 0..<n { dst[dO + k] = src[so + k] }
                        } else {
                            let sbit = s.x * bpp, dbit = dx * bpp
                            let mask = UInt8((1 << bpp) - 1)
                            let byte = src[s.y * bitmap.bytesPerRow + sbit / 8]
                            let value = (byte >> UInt8(8 - bpp - sbit % 8)) & mask
                            dst[dy * outStride + dbit / 8] |= value << UInt8(8 - bpp - dbit % 8)
                        }
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: dw, height: dh, format: format, bytesPerRow: outStride, bytes: out)
    }
}

extension Image {
    /// The image with its orientation baked into the pixels (orientation becomes `.up`);
    /// animation frames are transformed too.
    public func oriented() -> Image {
        guard orientation != .up else { return self }
        var out = self
        out.bitmap = orientation.apply(to: bitmap)
        if var animation {
            animation.frames = animation.frames.map { frame in
                var f = frame
                f.canvas = orientation.apply(to: frame.canvas)
                return f
            }
            out.animation = animation
        }
        out.orientation = .up
        return out
    }
}
