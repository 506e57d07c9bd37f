import Testing
import ImageCore
import ImageResize

/// Every operation accepts every pixel format and delivers upright, alpha-correct results.
@Suite("Operations")
struct OperationTests {
    /// The formats the documents' failures D1–D4 name, and their relatives.
    static let formats: [(String, PixelFormat)] = [
        ("rgb8 (D1)", .rgb8), ("rgba8 straight (D2)", .rgba8), ("rgba8 premultiplied", .rgba8Premultiplied),
        ("argb8 straight", PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .first)),
        ("bgra8 premultiplied", .bgra8Premultiplied),
        ("xrgb8 little", PixelFormat(colorModel: .rgb, bitsPerComponent: 8, alphaInfo: .noneSkipFirst, byteOrder: .little32)),
        ("indexed 4-bit (D3)", PixelFormat(colorModel: .indexed(Self.palette16), bitsPerComponent: 4)),
        ("gray8", .gray8), ("gray+alpha 8", .grayAlpha8), ("gray16", .gray16), ("rgb16 (D4)", .rgb16),
        ("rgba16", .rgba16), ("cmyk8", .cmyk8), ("rgba float", .rgbaFloat),
        ("rgb555", PixelFormat(colorModel: .rgb, bitsPerComponent: 5, alphaInfo: .noneSkipFirst)),
        ("gray 1-bit", PixelFormat(colorModel: .gray, bitsPerComponent: 1)),
    ]

    /// 16 entries: a red-to-blue ramp whose entry 0 is transparent.
    static let palette16: Palette = {
        var entries: [Palette.Entry] = []
        for i in 0..<16 {
            let level = UInt8(i * 17)
            entries.append(Palette.Entry(red: level, green: 0, blue: 255 - level, alpha: i == 0 ? 0 : 255))
        }
        return Palette(entries)
    }()

    /// A 12×8 test picture in `format`: a colour gradient, transparent in its left column.
    static func picture(_ format: PixelFormat, width: Int = 12, height: Int = 8) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), 128, x == 0 ? 0 : 255]
            }
        }
        let rgba = try Bitmap(width: width, height: height, format: .rgba8, bytes: bytes)
        if case .indexed = format.colorModel {
            // Index = x mod 16, so the palette's first entry (transparent) is in the left column.
            var b = try Bitmap(width: width, height: height, format: format)
            for y in 0..<height { for x in 0..<width where x % 2 == 1 { b.bytes[y * b.bytesPerRow + x / 2] |= UInt8(x) } }
            for y in 0..<height { for x in 0..<width where x % 2 == 0 { b.bytes[y * b.bytesPerRow + x / 2] |= UInt8(x << 4) } }
            return b
        }
        return try rgba.converted(to: format)
    }

    @Test("every format goes through every operation without being rejected", arguments: 0..<16)
    func everyFormat(index: Int) throws {
        let (name, format) = Self.formats[index]
        let image = Image(bitmap: try Self.picture(format), orientation: .right)
        let results: [(String, Image)] = [
            ("scaleToFill", try image.resized(width: 5, height: 7)),
            ("aspectFit", try image.resized(width: 5, height: 5, contentMode: .aspectFit)),
            ("aspectFill", try image.resized(width: 5, height: 5, contentMode: .aspectFill())),
            ("aspectFillWithoutCrop", try image.resized(width: 5, height: 5, contentMode: .aspectFillWithoutCrop)),
            ("crop", try image.cropped(to: Rect(x: 1.5, y: 2, width: 3.2, height: 4))),
            ("squareThumbnail", try image.squareThumbnail(size: 6, border: 1, cornerRadius: 2)),
            ("roundedCorners", try image.roundedCorners(radius: 3)),
            ("transparentBorder", try image.transparentBorder(width: 2)),
            ("alpha", try image.addingAlpha()),
            ("scale to fill", try image.scaledToFill(from: Rect(x: 0.5, y: 0.5, width: 6, height: 4), width: 9, height: 9)),
        ]
        for (op, result) in results {
            if op != "alpha" { #expect(result.orientation == .up, "\(name) \(op) is upright") }
        }
        // Displayed size of orientation 6 on a 12×8 image is 8×12: fit into 5×5 → 3×5.
        #expect((results[1].1.width, results[1].1.height) == (3, 5), "\(name)")
        #expect((results[4].1.width, results[4].1.height) == (4, 4), "\(name): crop 1.5…4.7 × 2…6 is integral 1…5 × 2…6")
        #expect((results[5].1.width, results[5].1.height) == (8, 8), "\(name)")
        // 16-bit stays 16-bit, alpha is kept, borders are transparent.
        if format.bitsPerComponent == 16 { #expect(results[0].1.format.bitsPerComponent == 16, "\(name)") }
        if format.hasAlpha { #expect(results[0].1.format.hasAlpha, "\(name)") }
        let border = results[7].1.bitmap
        #expect(border.format.alphaInfo.hasAlpha)
        #expect(border.straightRGBARow(0).enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 0 }, "\(name): border row is transparent")
    }

    @Test("orientation is baked in: each of the 8 orientations gives the same upright pixels", arguments: Orientation.allCases)
    func orientationBaked(o: Orientation) throws {
        let upright = try Self.picture(.rgb8)
        // Store the picture so that applying `o` displays it upright: stored = o⁻¹ applied.
        let stored = o.inverse.apply(to: upright)
        let image = Image(bitmap: stored, orientation: o)
        let out = try image.resized(width: 12, height: 8, options: ResizeOptions(kernel: .nearest))
        #expect(out.orientation == .up)
        #expect(out.bitmap == upright)
    }

    @Test("rounded corners are transparent outside, opaque inside, partial on the edge")
    func roundedCoverage() throws {
        let opaque = try Bitmap(width: 20, height: 20, format: .rgb8, bytes: [UInt8](repeating: 200, count: 1200))
        let out = try Image(bitmap: opaque).roundedCorners(radius: 8, border: 2).bitmap
        #expect((out.width, out.height) == (24, 24))
        let alpha = { (x: Int, y: Int) -> Double in out.straightRGBARow(y)[x * 4 + 3] }
        #expect(alpha(0, 0) == 0 && alpha(1, 12) == 0, "border and outer corner transparent")
        #expect(alpha(2, 2) == 0, "the corner pixel lies outside a radius-8 arc")
        #expect(alpha(12, 12) == 1 && alpha(2, 12) == 1, "inside and straight edge opaque")
        let edge = alpha(4, 4)
        #expect(edge > 0 && edge < 1, "an arc pixel is partly covered")
        // Colour of partly covered pixels stays the image's colour (not darkened towards black).
        let row = out.straightRGBARow(4)
        #expect(abs(row[4 * 4] - 200.0 / 255) < 0.01)
    }

    @Test("only-shrink keeps an image that already fits")
    func onlyShrink() throws {
        let image = Image(bitmap: try Self.picture(.rgb8))
        let out = try image.resized(width: 100, height: 100, contentMode: .aspectFit, options: ResizeOptions(onlyShrink: true))
        #expect((out.width, out.height) == (12, 8))
    }

    @Test("empty boxes and crops outside the image are typed errors")
    func errors() throws {
        let image = Image(bitmap: try Self.picture(.rgb8))
        #expect(throws: ResizeError.self) { try image.resized(width: 0, height: 5) }
        #expect(throws: ResizeError.self) { try image.cropped(to: Rect(x: 50, y: 50, width: 3, height: 3)) }
        #expect(throws: ResizeError.self) { try image.scaledToFill(from: Rect(x: 0, y: 0, width: 13, height: 8), width: 4, height: 4) }
    }
}

@Suite("End-to-end resize rules")
struct EndToEndRuleTests {
    @Test("a loud colour hidden under α = 0 never reaches visible output pixels", arguments: Kernel.presets.map(\.name))
    func dirtyPixels(kernelName: String) throws {
        let kernel = try #require(Kernel.named(kernelName))
        // Left half opaque mid-grey; right half fully transparent but storing pure magenta.
        var bytes: [UInt8] = []
        for _ in 0..<16 { for x in 0..<24 { bytes += x < 12 ? [128, 128, 128, 255] : [255, 0, 255, 0] } }
        let image = Image(bitmap: try Bitmap(width: 24, height: 16, format: .rgba8, bytes: bytes))
        let out = try image.resized(width: 7, height: 5, options: ResizeOptions(kernel: kernel)).bitmap
        #expect(out.format == .rgba8)
        for y in 0..<out.height {
            let row = out.straightRGBARow(y)
            for x in 0..<out.width where row[4 * x + 3] > 0.02 {
                // Every visible pixel is grey: red = green = blue within rounding.
                #expect(abs(row[4 * x] - row[4 * x + 1]) < 0.01 && abs(row[4 * x + 2] - row[4 * x + 1]) < 0.01,
                        "\(kernelName) (\(x), \(y)) shows hidden colour: \(row[(4 * x)..<(4 * x + 4)])")
            }
        }
    }

    @Test("the identity resize gives back the same bytes", arguments: [PixelFormat.rgba8, .rgb8, .gray8, .rgba16, .bgra8Premultiplied])
    func identityBytes(format: PixelFormat) throws {
        let bitmap = try OperationTests.picture(format)
        for space in LightSpace.allCases {
            let out = try Image(bitmap: bitmap).resized(width: bitmap.width, height: bitmap.height,
                                                        options: ResizeOptions(kernel: .lanczos3, lightSpace: space))
            // Identical wherever alpha is not 0; under α = 0 only alpha is defined (colour there is
            // not kept: the working form is premultiplied).
            for y in 0..<bitmap.height {
                let a = bitmap.straightRGBARow(y), b = out.bitmap.straightRGBARow(y)
                for x in 0..<bitmap.width {
                    let channels = a[4 * x + 3] == 0 ? 3...3 : 0...3
                    for c in channels { #expect(a[4 * x + c] == b[4 * x + c], "\(format) \(space) (\(x), \(y))") }
                }
            }
            if !format.hasAlpha { #expect(out.bitmap.tightlyPacked() == bitmap.tightlyPacked(), "\(format) \(space)") }
        }
    }

    @Test("points times scale gives the pixel size and records the scale (D8)")
    func retinaScale() throws {
        let image = Image(bitmap: try OperationTests.picture(.rgb8))
        let out = try image.resized(pointWidth: 5, pointHeight: 5, scale: 3, contentMode: .aspectFit)
        #expect((out.width, out.height) == (15, 10))
        #expect(out.metadata.scale == 3)
        #expect(throws: ResizeError.self) { try image.resized(pointWidth: 5, pointHeight: 5, scale: 0) }
    }

    @Test("16-bit in gives 16-bit out, with values a 8-bit path could not produce")
    func sixteenBitKept() throws {
        var bytes: [UInt8] = []
        for x in 0..<16 { let v = 30000 + x * 7; bytes += [UInt8(v >> 8), UInt8(v & 0xFF)] }
        let gray = try Bitmap(width: 16, height: 1, format: .gray16, bytes: bytes)
        let out = try Image(bitmap: gray).resized(width: 8, height: 1, options: ResizeOptions(kernel: .nearest, lightSpace: .sRGB)).bitmap
        #expect(out.format == .gray16)
        let values = stride(from: 0, to: 16, by: 2).map { Int(out.bytes[$0]) << 8 | Int(out.bytes[$0 + 1]) }
        // The box kernel averages pairs in sRGB mode: (30000 + 14i) and (30007 + 14i) → 30003.5 + 14i,
        // values no 8-bit path can produce (not multiples of 257).
        #expect(values.contains { $0 % 257 != 0 })
        for (i, v) in values.enumerated() { #expect(abs(Double(v) - (30003.5 + 14 * Double(i))) <= 1, "pixel \(i): \(v)") }
    }
}
