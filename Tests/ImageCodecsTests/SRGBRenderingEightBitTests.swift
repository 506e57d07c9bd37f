import Testing
import ImageCore
@testable import ImageCodecs

/// An 8-bit image with a matrix/TRC profile is rendered to 8-bit sRGB codes directly (no 16-bit
/// intermediate). Its definition stays the 16-bit rendering rounded to 8 bits (÷ 257, half up):
/// every sample of the direct route must be that, for gray and RGB, with and without alpha.
@Suite("sRGB rendering at 8 bits")
struct SRGBRenderingEightBitTests {
    /// Every 8-bit code in each channel, and pixels mixing them (so the matrix sees every curve value).
    static func samples(channels: Int, pixels: Int) -> [UInt8] {
        (0..<pixels * channels).map { i in UInt8(truncatingIfNeeded: (i / channels) &* (7 &+ 2 &* (i % channels)) &+ i % channels) }
    }

    static let rgbProfile = ICCProfileBuilder.rgb(white: (0.3127, 0.3290), primaries: [(0.68, 0.32), (0.265, 0.69), (0.15, 0.06)],
                                                  gamma: 2.2)
    static let grayProfile = ICCProfileBuilder.gray(white: (0.3457, 0.3585), curve: .power(1.8))

    @Test("each sample of the 8-bit rendering is the 16-bit rendering's, rounded half up after ÷ 257",
          arguments: [(PixelFormat.rgb8, 3), (.rgba8, 4), (.gray8, 1), (PixelFormat(colorModel: .gray, bitsPerComponent: 8, alphaInfo: .last), 2)])
    func eightBitIsTheRoundedSixteenBit(format: PixelFormat, channels: Int) throws {
        let profile = try #require(channels >= 3 ? Self.rgbProfile : Self.grayProfile)
        let width = 64, height = 40
        let bitmap = try Bitmap(width: width, height: height, format: format, bytes: Self.samples(channels: channels, pixels: width * height))
        let image = Image(bitmap: bitmap, orientation: .right, metadata: ImageMetadata(iccProfile: profile))
        let eight = try SRGBRendering.render(image)
        let sixteen = try SRGBRendering.render(image, sixteenBit: true)
        let outChannels = format.hasAlpha ? 4 : 3
        #expect(eight.format == (format.hasAlpha ? .rgba8 : .rgb8))
        #expect(eight.orientation == .right && eight.metadata.iccProfile == nil)
        #expect(sixteen.format.bitsPerComponent == 16)
        // The 16-bit rendering is stored little-endian, two bytes a sample.
        let wide = sixteen.bitmap.bytes
        #expect(wide.count == width * height * outChannels * 2)
        var mismatches = 0
        for i in 0..<width * height * outChannels {
            let code = Int(wide[2 * i]) | Int(wide[2 * i + 1]) << 8
            if Int(eight.bitmap.bytes[i]) != (code + 128) / 257 { mismatches += 1 }
        }
        #expect(mismatches == 0)
        // Not a vacuous check: the profile moves the colours (the rendering is not the input).
        if channels >= 3 { #expect(Array(eight.bitmap.bytes.prefix(150)) != Array(bitmap.bytes.prefix(150))) }
        if format.hasAlpha {
            for p in 0..<width * height {
                #expect(eight.bitmap.bytes[p * 4 + 3] == bitmap.bytes[p * channels + channels - 1])
                if eight.bitmap.bytes[p * 4 + 3] != bitmap.bytes[p * channels + channels - 1] { break }
            }
        }
    }
}
