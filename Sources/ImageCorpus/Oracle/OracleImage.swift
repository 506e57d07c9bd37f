import ImageCore

/// An oracle rendering: premultiplied RGBA in linear light, `Double`, row by row.
public struct OracleImage: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` values: R·α, G·α, B·α (linear light) and α, each 0…1.
    public var pixels: [Double]

    public init(width: Int, height: Int, pixels: [Double]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The rendering of `bitmap` (any format, read as straight sRGB-encoded values) in premultiplied linear light.
    /// - Throws: a conversion error for a bitmap that cannot be read as RGBA.
    public init(straightSRGB bitmap: Bitmap) throws {
        let rgba = try bitmap.converted(to: .rgbaFloat)
        let count = rgba.width * rgba.height
        var pixels = [Double](repeating: 0, count: count * 4)
        rgba.bytes.withUnsafeBytes { raw in
            for y in 0..<rgba.height {
                for x in 0..<rgba.width {
                    let o = y * rgba.bytesPerRow + 16 * x, p = y * rgba.width + x
                    // PixelFormat.rgbaFloat is host order.
                    let a = Double(raw.loadUnaligned(fromByteOffset: o + 12, as: Float.self))
                    pixels[p * 4 + 3] = a
                    for c in 0..<3 {
                        pixels[p * 4 + c] = SRGBTransfer.toLinear(Double(raw.loadUnaligned(fromByteOffset: o + 4 * c, as: Float.self))) * a
                    }
                }
            }
        }
        self.init(width: rgba.width, height: rgba.height, pixels: pixels)
    }

    /// Straight, sRGB-encoded RGBA of pixel (x, y), each 0…1 (colour 0 where α = 0): the
    /// values a file stores.
    public func encodedPixel(x: Int, y: Int) -> (red: Double, green: Double, blue: Double, alpha: Double) {
        let i = (y * width + x) * 4
        let a = min(max(pixels[i + 3], 0), 1)
        func channel(_ v: Double) -> Double { a > 0 ? SRGBTransfer.fromLinear(min(max(v / a, 0), 1)) : 0 }
        return (channel(pixels[i]), channel(pixels[i + 1]), channel(pixels[i + 2]), a)
    }

    /// The rendering as 16-bit straight RGBA, sRGB-encoded (``PixelFormat/rgba16``): each value
    /// `round(v · 65535)`, half up. This is the form oracle files are stored in.
    public func bitmap16() -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 8)
        for y in 0..<height {
            for x in 0..<width {
                let p = encodedPixel(x: x, y: y)
                let o = (y * width + x) * 8
                for (k, v) in [p.red, p.green, p.blue, p.alpha].enumerated() {
                    let q = UInt16((v * 65535 + 0.5).rounded(.down))
                    bytes[o + 2 * k] = UInt8(q >> 8)
                    bytes[o + 2 * k + 1] = UInt8(q & 0xFF)
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, format: .rgba16, bytesPerRow: width * 8, bytes: bytes)
    }

    /// The rendering as 32-bit float straight RGBA, sRGB-encoded: the exact input from which
    /// a corpus source is converted to its pixel format.
    public func straightFloatBitmap() -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 16)
        for y in 0..<height {
            for x in 0..<width {
                let p = encodedPixel(x: x, y: y)
                let o = (y * width + x) * 16
                for (k, v) in [p.red, p.green, p.blue, p.alpha].enumerated() {
                    let bits = Float(v).bitPattern
                    // PixelFormat.rgbaFloat is host order: little-endian on every platform imglab runs on.
                    bytes[o + 4 * k] = UInt8(bits & 0xFF)
                    bytes[o + 4 * k + 1] = UInt8((bits >> 8) & 0xFF)
                    bytes[o + 4 * k + 2] = UInt8((bits >> 16) & 0xFF)
                    bytes[o + 4 * k + 3] = UInt8(bits >> 24)
                }
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, format: .rgbaFloat, bytesPerRow: width * 16, bytes: bytes)
    }
}
