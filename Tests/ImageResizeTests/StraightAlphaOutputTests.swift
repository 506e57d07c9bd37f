import Foundation
import Testing
import ImageCore
import ImageCodecs
@testable import ImageResize

/// ``ResizeOptions/straightAlpha``: a premultiplied source resized for a container that stores
/// straight alpha is rounded once. The reference is the same resize delivered as straight `Float`
/// samples (unrounded): one rounding puts every 8-bit colour within ½ code value of 255·S, plus
/// ½ · 255/65535 because the 8-bit output table is indexed at 1/65535 (`RowConversion`).
@Suite("Straight-alpha output")
struct StraightAlphaOutputTests {
    static let onceBound = 0.5 + 0.5 * 255 / 65535 + 1e-5

    /// A 40×30 premultiplied RGBA 8 image of deterministic colours under low and mixed alpha.
    static func premultipliedSource() throws -> Image {
        var state: UInt64 = 0x1234_5678
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        var bytes: [UInt8] = []
        for _ in 0..<(40 * 30) {
            let a = [1, 3, 7, 20, 64, 128, 255][next(7)]
            bytes += [UInt8(next(a + 1)), UInt8(next(a + 1)), UInt8(next(a + 1)), UInt8(a)]
        }
        return Image(bitmap: try Bitmap(width: 40, height: 30, format: .rgba8Premultiplied, bytes: bytes))
    }

    /// The largest |8-bit colour − 255·S| over pixels whose 8-bit alpha is not 0, where S is the
    /// straight `Float` colour of `reference` (sRGB-encoded, 0…1).
    static func largestColourError(_ output: Bitmap, reference: Bitmap) -> Double {
        var worst = 0.0
        for y in 0..<output.height {
            let out = output.straightRGBARow(y), ideal = reference.straightRGBARow(y)
            for x in 0..<output.width where (out[x * 4 + 3] * 255).rounded() > 0 {
                for c in 0..<3 { worst = max(worst, abs(out[x * 4 + c] * 255 - ideal[x * 4 + c] * 255)) }
            }
        }
        return worst
    }

    @Test("with straightAlpha a premultiplied source comes out straight, each colour within ½ code value of the unrounded result")
    func roundedOnce() throws {
        let source = try Self.premultipliedSource()
        let reference = try source.resized(width: 17, height: 13, options: ResizeOptions(outputFormat: .rgbaFloat)).bitmap
        let straight = try source.resized(width: 17, height: 13, options: ResizeOptions(straightAlpha: true)).bitmap
        #expect(straight.format == .rgba8)
        #expect(Self.largestColourError(straight, reference: reference) <= Self.onceBound)

        // The same resize delivered premultiplied (the source's layout) and divided by alpha
        // afterwards, as an encoder for straight alpha would: rounded twice, up to ½ + ½/α off.
        let premultiplied = try source.resized(width: 17, height: 13, options: ResizeOptions()).bitmap
        #expect(premultiplied.format == .rgba8Premultiplied)
        let twice = Self.largestColourError(try premultiplied.converted(to: .rgba8), reference: reference)
        #expect(twice > Self.onceBound, "rounding twice stayed within the bound (\(twice)): the check above proves nothing")
    }

    @Test("the streaming file path honours straightAlpha too, and an explicit outputFormat still wins")
    func streamingPath() throws {
        let source = try Self.premultipliedSource()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("straight-\(UUID().uuidString).tif").path
        try ImageCodecs.writeAtomically(try ImageCodecs.encode(source, as: .tiff), to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ImageCodecs.decode(contentsOf: path).format == .rgba8Premultiplied)

        let reference = try FileResize.resized(path: path, width: 17, height: 13, options: ResizeOptions(outputFormat: .rgbaFloat)).bitmap
        let straight = try FileResize.resized(path: path, width: 17, height: 13, options: ResizeOptions(straightAlpha: true)).bitmap
        #expect(straight.format == .rgba8)
        #expect(Self.largestColourError(straight, reference: reference) <= Self.onceBound)
        let explicit = try FileResize.resized(path: path, width: 17, height: 13,
                                              options: ResizeOptions(outputFormat: .rgba8Premultiplied, straightAlpha: true)).bitmap
        #expect(explicit.format == .rgba8Premultiplied)
    }

    @Test("straight alpha replaces premultiplied alpha only: first stays first, byte order and depth stay")
    func withStraightAlpha() {
        #expect(OutputFormat.withStraightAlpha(.rgba8Premultiplied) == .rgba8)
        let bgra = OutputFormat.withStraightAlpha(.bgra8Premultiplied)
        #expect(bgra.alphaInfo == .first && bgra.byteOrder == PixelFormat.bgra8Premultiplied.byteOrder)
        for format in [PixelFormat.rgb8, .rgba16, .gray8, .grayAlpha16, .rgbaFloat] {
            #expect(OutputFormat.withStraightAlpha(format) == format)
        }
        // TIFF by ExtraSamples 1 (associated alpha), HEIF and AVIF by a `prem` reference to the alpha image.
        #expect(ContainerFormat.allCases.filter(\.storesPremultipliedAlpha) == [.tiff, .heif, .avif])
    }
}
