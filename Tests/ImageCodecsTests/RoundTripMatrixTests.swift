import Testing
import ImageCore
@testable import ImageCodecs

/// Acceptance 2 of the foundation issue, across containers: for every (container, pixel
/// format) pair the encoders store losslessly, decoding gives back the same pixel values, the
/// same alpha kind (none / straight / premultiplied), the orientation and the ICC profile.
@Suite("Round-trip matrix")
struct RoundTripMatrixTests {
    static func palette(_ count: Int, transparent: Bool) -> Palette {
        var entries: [Palette.Entry] = []
        for i in 0..<count {
            entries.append(Palette.Entry(red: UInt8(i * 255 / max(count - 1, 1)), green: UInt8((i * 37) & 255),
                                         blue: UInt8(255 - i * 255 / max(count - 1, 1)), alpha: transparent && i == 0 ? 0 : 255))
        }
        return Palette(entries)
    }

    static func indexed(_ bits: Int, transparent: Bool) -> PixelFormat {
        PixelFormat(colorModel: .indexed(palette(1 << bits, transparent: transparent)), bitsPerComponent: bits)
    }

    static let gray1 = PixelFormat(colorModel: .gray, bitsPerComponent: 1)
    static let gray2 = PixelFormat(colorModel: .gray, bitsPerComponent: 2)
    static let gray4 = PixelFormat(colorModel: .gray, bitsPerComponent: 4)
    static let rgba16Premultiplied = PixelFormat(colorModel: .rgb, bitsPerComponent: 16, alphaInfo: .premultipliedLast)
    static let grayFloat = PixelFormat(colorModel: .gray, bitsPerComponent: 32, isFloat: true)
    static let rgbFloat = PixelFormat(colorModel: .rgb, bitsPerComponent: 32, isFloat: true)
    static let cmyk16 = PixelFormat(colorModel: .cmyk(inverted: false), bitsPerComponent: 16)
    static let xrgbLittle = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst, byteOrder: .little32)
    static let argbLittle = PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first, byteOrder: .little32)
    static let rgb555 = PixelFormat(colorModel: .rgb, bitsPerComponent: 5, alphaInfo: .noneSkipFirst, byteOrder: .little16)

    /// The lossless pairs: container, format name, format, whether the container stores orientation.
    static let pairs: [(ContainerFormat, String, PixelFormat)] = {
        var p: [(ContainerFormat, String, PixelFormat)] = []
        let pngFormats: [(String, PixelFormat)] = [
            ("gray1", gray1), ("gray2", gray2), ("gray4", gray4), ("gray8", .gray8), ("gray16", .gray16),
            ("grayAlpha8", .grayAlpha8), ("grayAlpha16", .grayAlpha16), ("rgb8", .rgb8), ("rgb16", .rgb16),
            ("rgba8", .rgba8), ("rgba16", .rgba16),
            ("indexed1", indexed(1, transparent: false)), ("indexed2+tRNS", indexed(2, transparent: true)),
            ("indexed4", indexed(4, transparent: false)), ("indexed8+tRNS", indexed(8, transparent: true)),
        ]
        p += pngFormats.map { (.png, $0.0, $0.1) }
        let tiffFormats: [(String, PixelFormat)] = [
            ("gray1", gray1), ("gray8", .gray8), ("gray16", .gray16), ("rgb8", .rgb8), ("rgb16", .rgb16),
            ("rgba8 straight", .rgba8), ("rgba16 straight", .rgba16), ("rgba8 premultiplied", .rgba8Premultiplied),
            ("rgba16 premultiplied", rgba16Premultiplied), ("gray float", grayFloat), ("rgb float", rgbFloat),
            ("rgba float", .rgbaFloat), ("indexed8", indexed(8, transparent: false)), ("cmyk8", .cmyk8), ("cmyk16", cmyk16),
        ]
        p += tiffFormats.map { (.tiff, $0.0, $0.1) }
        let gifFormats: [(String, PixelFormat)] = [
            ("indexed1", indexed(1, transparent: false)), ("indexed4+transparent", indexed(4, transparent: true)),
            ("indexed8", indexed(8, transparent: false)),
        ]
        p += gifFormats.map { (.gif, $0.0, $0.1) }
        let bmpFormats: [(String, PixelFormat)] = [
            ("rgb8", .rgb8), ("xrgb8 little", xrgbLittle), ("argb8 little", argbLittle), ("rgb555", rgb555),
            ("indexed1", indexed(1, transparent: false)), ("indexed4", indexed(4, transparent: false)),
            ("indexed8", indexed(8, transparent: false)),
        ]
        p += bmpFormats.map { (.bmp, $0.0, $0.1) }
        return p
    }()

    /// A 13×7 picture that uses many distinct values of `format` (odd width exercises row padding).
    static func picture(_ format: PixelFormat) throws -> Bitmap {
        let (w, h) = (13, 7)
        var b = try Bitmap(width: w, height: h, format: format)
        if case .indexed(let palette) = format.colorModel {
            for y in 0..<h { for x in 0..<w { setIndex(&b, x, y, (x * 3 + y * 5) % palette.count) } }
            return b
        }
        var rgba = try Bitmap(width: w, height: h, format: .rgba16)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 8
                let values = [(x * 5003 + y * 17) % 65536, (y * 9001 + x * 3) % 65536, ((x + y) * 7919) % 65536, x == 0 ? 0 : (x * 65535 / (w - 1))]
                for c in 0..<4 { rgba.bytes[i + 2 * c] = UInt8(values[c] >> 8); rgba.bytes[i + 2 * c + 1] = UInt8(values[c] & 0xFF) }
            }
        }
        b = try rgba.converted(to: format)
        return b
    }

    static func setIndex(_ b: inout Bitmap, _ x: Int, _ y: Int, _ v: Int) {
        let bpp = b.format.bitsPerPixel
        let bit = x * bpp
        b.bytes[y * b.bytesPerRow + bit / 8] |= UInt8(v << (8 - bpp - bit % 8) & 0xFF)
    }

    /// Equal pixel values: bytes when the formats agree, else after converting back.
    static func sameValues(_ original: Bitmap, _ decoded: Bitmap) -> Bool {
        if original.format == decoded.format { return original.tightlyPacked() == decoded.tightlyPacked() }
        if original.format.isIndexed || decoded.format.isIndexed {
            return (0..<original.height).allSatisfy { original.straightRGBARow($0) == decoded.straightRGBARow($0) }
        }
        guard let back = try? decoded.converted(to: original.format) else { return false }
        return back.tightlyPacked() == original.tightlyPacked()
    }

    @Test("lossless containers give back identical pixels, alpha kind, orientation and ICC", arguments: 0..<pairs.count)
    func roundTrip(index: Int) throws {
        let (container, name, format) = Self.pairs[index]
        let bitmap = try Self.picture(format)
        let storesOrientation = container == .png || container == .tiff
        let icc = [UInt8](repeating: 0, count: 132) + Array("test profile".utf8)
        var image = Image(bitmap: bitmap, orientation: storesOrientation ? .leftMirrored : .up)
        image.metadata.iccProfile = icc
        let bytes = try ImageCodecs.encode(image, as: container)
        let decoded = try ImageCodecs.decode(bytes)
        #expect(Self.sameValues(bitmap, decoded.bitmap), "\(container) \(name): pixel values differ (decoded as \(decoded.format))")
        #expect(decoded.format.hasAlpha == format.hasAlpha, "\(container) \(name): alpha presence")
        #expect(decoded.format.isPremultiplied == format.isPremultiplied, "\(container) \(name): premultiplied vs straight")
        if case .indexed(let p) = format.colorModel, case .indexed(let q) = decoded.format.colorModel {
            #expect(Array(q.entries.prefix(p.count)) == p.entries, "\(container) \(name): palette")
        }
        #expect(decoded.orientation == image.orientation, "\(container) \(name): orientation")
        if container != .gif { #expect(decoded.metadata.iccProfile == icc, "\(container) \(name): ICC profile") }
    }
}
