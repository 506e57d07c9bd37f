import Foundation

/// The sRGB transfer function of IEC 61966-2-1, in both directions.
///
/// Constants as in `Tests/Fixtures/reference/README.md` §2: decoding is
/// `c ≤ 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4`, encoding is
/// `l ≤ 0.0031308 ? 12.92 l : 1.055 l^(1/2.4) − 0.055`; values are in 0…1.
public enum SRGBTransfer {
    /// Encoded sRGB value (0…1) → linear light (0…1).
    @inlinable
    public static func toLinear(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light (0…1) → encoded sRGB value (0…1).
    @inlinable
    public static func fromLinear(_ l: Double) -> Double {
        l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
    }

    /// `toLinear(v / 255)` for every 8-bit code, computed once.
    public static let linearFromByte: [Double] = (0...255).map { toLinear(Double($0) / 255) }
}

/// How the colour values of a ``WorkingImage`` relate to light.
public enum LightSpace: String, Hashable, Sendable, CaseIterable {
    /// Values are proportional to light intensity (sRGB decoded): averaging here is physically right.
    case linear
    /// Values are the gamma-encoded sRGB values as stored in the file.
    case sRGB
}

/// The float working form: RGBA, colour premultiplied by alpha, 32-bit floats.
///
/// Every pixel format converts into it exactly up to float precision: gray is replicated,
/// palettes expanded, CMYK converted by the naive formula, colour decoded to linear light
/// when ``lightSpace`` is `.linear`, then multiplied by alpha.
public struct WorkingImage: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Whether colour values are linear light or encoded sRGB.
    public let lightSpace: LightSpace
    /// `width × height × 4` values: premultiplied R, G, B, then A, row by row; nominal range 0…1.
    public var pixels: [Float]

    /// An all-zero (transparent) image.
    public init(width: Int, height: Int, lightSpace: LightSpace) {
        self.width = width
        self.height = height
        self.lightSpace = lightSpace
        self.pixels = [Float](repeating: 0, count: max(width * height * 4, 0))
    }

    /// Converts a bitmap of any format into the working form.
    public init(_ bitmap: Bitmap, lightSpace: LightSpace = .linear) {
        self.init(width: bitmap.width, height: bitmap.height, lightSpace: lightSpace)
        for y in 0..<bitmap.height {
            let row = bitmap.straightRGBARow(y)
            let base = y * width * 4
            for x in 0..<width {
                let a = row[x * 4 + 3]
                for c in 0..<3 {
                    let v = lightSpace == .linear ? SRGBTransfer.toLinear(row[x * 4 + c]) : row[x * 4 + c]
                    pixels[base + x * 4 + c] = Float(v * a)
                }
                pixels[base + x * 4 + 3] = Float(a)
            }
        }
    }

    /// Converts back to a bitmap of `format`: colour divided by alpha, encoded to sRGB when
    /// linear, then packed by the rules of ``Bitmap/converted(to:)``.
    public func bitmap(format: PixelFormat) throws(ConversionError) -> Bitmap {
        var straight = Bitmap(uncheckedWidth: width, height: height, format: .rgbaFloat,
                              bytesPerRow: width * 16, bytes: [UInt8](repeating: 0, count: width * height * 16))
        var row = [Double](repeating: 0, count: width * 4)
        for y in 0..<height {
            let base = y * width * 4
            for x in 0..<width {
                let a = Double(pixels[base + x * 4 + 3].clamped(0, 1))
                for c in 0..<3 {
                    var v = a > 0 ? Double(pixels[base + x * 4 + c]) / a : 0
                    v = v.clamped(0, 1)
                    row[x * 4 + c] = lightSpace == .linear ? SRGBTransfer.fromLinear(v) : v
                }
                row[x * 4 + 3] = a
            }
            try straight.packRow(y, from: row)
        }
        return try straight.converted(to: format)
    }
}
